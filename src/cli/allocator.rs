//! The global allocator's wrapper: an allocation that fails is one line on
//! stderr and exit code 2 (issue 48 item 5), never Rust's abort with a
//! backtrace. Nothing on the way out allocates: the message is written from
//! a fixed buffer straight to file descriptor 2.

use std::alloc::{GlobalAlloc, Layout};

/// `A`, except that a null pointer (the request refused) ends the process.
pub(crate) struct OneLineOnFailure<A>(pub A);

// SAFETY: every call is passed to the wrapped allocator unchanged; only a
// null result is not returned (the process ends instead).
unsafe impl<A: GlobalAlloc> GlobalAlloc for OneLineOnFailure<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's guarantees are passed on.
        checked(unsafe { self.0.alloc(layout) }, layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        checked(unsafe { self.0.alloc_zeroed(layout) }, layout.size())
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `alloc`.
        checked(unsafe { self.0.realloc(ptr, layout, new_size) }, new_size)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as for `alloc`.
        unsafe { self.0.dealloc(ptr, layout) }
    }
}

fn checked(ptr: *mut u8, size: usize) -> *mut u8 {
    if ptr.is_null() {
        out_of_memory(size);
    }
    ptr
}

/// Set by the first thread whose allocation is refused: only that one writes
/// the line and ends the process, so that several threads refused at once
/// still give one line (seen: two lines from two rayon threads).
static REPORTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Writes "error: out of memory …" with the refused size and ends the process.
#[cold]
fn out_of_memory(size: usize) -> ! {
    if REPORTED.swap(true, std::sync::atomic::Ordering::SeqCst) {
        // Another thread is writing the line and ending the process (in
        // microseconds); waiting must not allocate, so it spins.
        loop {
            std::hint::spin_loop();
        }
    }
    let mut line = [0u8; 256];
    let mut len = 0;
    let mut put = |bytes: &[u8]| {
        let n = bytes.len().min(line.len() - len);
        line[len..len + n].copy_from_slice(&bytes[..n]);
        len += n;
    };
    put(b"error: out of memory: the system refused an allocation of ");
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = size;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    put(&digits[at..]);
    put(b" bytes (a ulimit or the machine is full); free memory, or give --max-memory below the limit\n");
    exit_with(&line[..len])
}

#[cfg(unix)]
fn exit_with(line: &[u8]) -> ! {
    unsafe extern "C" {
        fn write(fd: i32, buf: *const u8, count: usize) -> isize;
        fn _exit(status: i32) -> !;
    }
    // SAFETY: `line` is a valid buffer; `_exit` ends the process without
    // running anything that could allocate.
    unsafe {
        write(2, line.as_ptr(), line.len());
        _exit(2)
    }
}

#[cfg(not(unix))]
fn exit_with(line: &[u8]) -> ! {
    use std::io::Write;
    let _ = std::io::stderr().write_all(line);
    std::process::exit(2)
}
