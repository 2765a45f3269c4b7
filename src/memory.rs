//! Large lookup tables in transparent huge pages.
//!
//! The Beams(6c,6p) hit table (533 MB) and code set (381 MB) are read at
//! scattered rows deep in the strategy tree; with 4 KB pages nearly every row
//! costs a TLB miss and a page walk. On Linux, memory that is advised with
//! `MADV_HUGEPAGE` before it is first touched is backed by 2 MB pages (when
//! the kernel's THP mode is `always` or `madvise`). Elsewhere, or if the
//! kernel refuses, the advice is a no-op and nothing else changes.

/// A zero-filled vector of `len` elements whose pages are advised to be huge
/// before they are touched. `T` must be valid when all bytes are zero.
pub fn huge_zeroed<T: Copy + Default>(len: usize) -> Vec<T> {
    let v = vec![T::default(); len];
    advise_huge(&v);
    v
}

/// Advises the kernel to back the whole 2 MB pages inside `data` with huge pages.
pub fn advise_huge<T>(data: &[T]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        const MADV_HUGEPAGE: i32 = 14;
        unsafe extern "C" {
            fn madvise(addr: *mut core::ffi::c_void, length: usize, advice: i32) -> i32;
        }
        let start = data.as_ptr() as usize;
        let end = start + std::mem::size_of_val(data);
        let (from, to) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
        if to > from {
            // SAFETY: the range lies inside `data`'s allocation; MADV_HUGEPAGE
            // changes no contents, only how the pages are backed.
            unsafe {
                madvise(from as *mut core::ffi::c_void, to - from, MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = data;
}
