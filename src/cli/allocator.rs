//! The global allocator's wrapper: an allocation that fails is one line on
//! stderr and exit code 2 (issue 48 item 5), never Rust's abort with a
//! backtrace, and the command's temporary files are removed first, as on
//! SIGINT (cli/signals.rs) and at the memory guard's stop. Nothing on the way
//! out allocates: the files are removed by paths passed from the stack, and
//! the message is written from a fixed buffer straight to file descriptor 2.

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

thread_local! {
    /// Set on the thread that reports while it removes the temporary files:
    /// should that allocate and be refused too, the line is written at once.
    static REPORTING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Claims the process's one error line for a thread that writes it itself and
/// then ends the process (`main` when the worker threads cannot start).
/// Returns false if an out-of-memory report has the line already: that thread
/// ends the process within microseconds, so the caller must write nothing.
/// A refused allocation while the caller writes ends the process at once
/// with the short line (the caller is marked as reporting), never a second one.
pub(crate) fn claim_the_error_line() -> bool {
    if REPORTED.swap(true, std::sync::atomic::Ordering::SeqCst) {
        return false;
    }
    REPORTING.with(|r| r.set(true));
    true
}

/// Removes the temporary files and writes "error: out of memory …" with the
/// refused size, then ends the process.
#[cold]
fn out_of_memory(size: usize) -> ! {
    if REPORTING.with(|r| r.replace(true)) {
        exit_with(b"error: out of memory: the system refused an allocation while the temporary files were removed\n");
    }
    if REPORTED.swap(true, std::sync::atomic::Ordering::SeqCst) {
        // Another thread is writing the line and ending the process (in
        // microseconds); waiting must not allocate, so it spins.
        loop {
            std::hint::spin_loop();
        }
    }
    renyi_search::output::remove_temporary_files_without_allocating();
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

/// Whether `bytes` of address space can be mapped now: mapped without access or reservation
/// and unmapped at once. A thread's start maps its stack and then, in Rust's runtime, a signal
/// stack; the runtime aborts with a backtrace when the second is refused (seen under `ulimit -v`
/// at the memory guard's start), so a thread is started only when this room is there.
#[cfg(target_os = "linux")]
pub(crate) fn address_space_for(bytes: usize) -> bool {
    use core::ffi::c_void;
    unsafe extern "C" {
        fn mmap(addr: *mut c_void, len: usize, prot: i32, flags: i32, fd: i32, offset: i64) -> *mut c_void;
        fn munmap(addr: *mut c_void, len: usize) -> i32;
    }
    const PROT_NONE: i32 = 0;
    const MAP_PRIVATE: i32 = 0x02;
    const MAP_ANONYMOUS: i32 = 0x20;
    const MAP_NORESERVE: i32 = 0x4000;
    const MAP_FAILED: *mut c_void = !0usize as *mut c_void;
    // SAFETY: a fresh anonymous mapping chosen by the kernel, touched by nobody and unmapped
    // before anything else can learn of it.
    unsafe {
        let at = mmap(std::ptr::null_mut(), bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if at == MAP_FAILED {
            return false;
        }
        munmap(at, bytes);
    }
    true
}

/// Elsewhere a thread's start is left to the system.
#[cfg(not(target_os = "linux"))]
pub(crate) fn address_space_for(_bytes: usize) -> bool {
    true
}

/// The address space a thread of `stack` bytes needs to start: its stack, the runtime's signal
/// stack with its guard page, and room for the allocator's first pages in the new thread.
pub(crate) fn thread_room(stack: usize) -> usize {
    stack + (4 << 20)
}

#[cfg(test)]
mod tests {
    use super::OneLineOnFailure;
    use std::alloc::{GlobalAlloc, Layout};

    /// An allocator that refuses every request, as the system does under a
    /// ulimit or on a full machine.
    struct Refusing;

    // SAFETY: it never hands out memory.
    unsafe impl GlobalAlloc for Refusing {
        unsafe fn alloc(&self, _: Layout) -> *mut u8 {
            std::ptr::null_mut()
        }
        unsafe fn dealloc(&self, _: *mut u8, _: Layout) {}
    }

    /// Set in the child process of [`a_refusal_mid_write_leaves_no_temporary_file`]:
    /// the folder it writes into.
    const CHILD: &str = "RENYI_SEARCH_ALLOCATOR_TEST_DIR";

    /// The child's part: an output file is half written (its temporary file
    /// exists and is listed) when an allocation is refused.
    #[test]
    fn refused_while_writing() {
        let Some(dir) = std::env::var_os(CHILD) else { return };
        let out = std::path::Path::new(&dir).join("out.json");
        let _ = renyi_search::output::write_atomic_with(&out, |w| {
            w.write_all(b"{\"half\": ")?;
            w.flush()?;
            // SAFETY: a valid layout; the wrapper ends the process on refusal.
            let _ = unsafe { OneLineOnFailure(Refusing).alloc(Layout::from_size_align(1 << 20, 8).unwrap()) };
            unreachable!("a refused allocation ends the process")
        });
    }

    /// Issue 48 item 5: an allocation refused in the middle of writing an
    /// output is one line and exit code 2, and the command's temporary file
    /// is removed (before, the process ended and left `.out.json.tmpPID`).
    #[test]
    fn a_refusal_mid_write_leaves_no_temporary_file() {
        if std::env::var_os(CHILD).is_some() {
            return;
        }
        let dir = std::env::temp_dir().join(format!("renyi-allocator-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let child = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "cli::allocator::tests::refused_while_writing", "--test-threads", "1", "--nocapture"])
            .env(CHILD, &dir)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&child.stderr);
        assert_eq!(child.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("error: out of memory: the system refused an allocation of 1048576 bytes (a ulimit"),
            "{err}"
        );
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert!(left.is_empty(), "left behind: {left:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
