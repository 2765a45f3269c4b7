//! Process memory: large lookup tables in transparent huge pages, and the
//! process's peak resident size (for the run records).
//!
//! The Beams(6c,6p) hit table (533 MB) and code set (381 MB) are read at
//! scattered rows deep in the strategy tree; with 4 KB pages nearly every row
//! costs a TLB miss and a page walk. On Linux, memory that is advised with
//! `MADV_HUGEPAGE` before it is first touched is backed by 2 MB pages (when
//! the kernel's THP mode is `always` or `madvise`). Elsewhere, or if the
//! kernel refuses, the advice is a no-op and nothing else changes.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

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

/// The memory budget of a job, in bytes: set by the command line
/// (`--max-memory`), else the default fixed at the first call: three
/// quarters of the machine's memory, but at most nine tenths of what is free
/// for this process then (Linux: `MemTotal`, and `MemAvailable` plus this
/// process's own resident memory, of `/proc/meminfo`), else 16 GiB. So a job
/// started beside another large one (a 12 GB curve run on a 24 GB machine)
/// stops at its budget instead of driving the machine out of memory, where
/// the kernel may kill either. Jobs estimate their size before allocating
/// and refuse beyond it ([`check_budget`]). A job run inside
/// [`Budget::within`] sees its own budget instead.
pub fn budget_bytes() -> u64 {
    if let Some(bytes) = CURRENT.with(|c| c.borrow().as_ref().map(|b| b.bytes)) {
        return bytes;
    }
    process_budget_bytes()
}

/// The process's budget: `--max-memory`, else the default (see [`budget_bytes`]).
fn process_budget_bytes() -> u64 {
    match BUDGET.load(Ordering::Relaxed) {
        0 => *DEFAULT_BUDGET.get_or_init(|| {
            let info = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
            default_budget(&info, resident_bytes().unwrap_or(0)).unwrap_or(16 << 30)
        }),
        b => b,
    }
}

static BUDGET: AtomicU64 = AtomicU64::new(0);
static DEFAULT_BUDGET: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
/// The user's text of the budget (`--max-memory 0.5`), for messages.
static GIVEN: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// Sets the budget of [`budget_bytes`] (0: the default).
pub fn set_budget_bytes(bytes: u64) {
    BUDGET.store(bytes, Ordering::Relaxed);
}

/// Sets the budget as the user gave it: `bytes`, and `given` (e.g.
/// `--max-memory 0.5`) named in every refusal.
pub fn set_budget_given(bytes: u64, given: impl Into<String>) {
    set_budget_bytes(bytes);
    *GIVEN.lock().unwrap_or_else(|p| p.into_inner()) = Some(given.into());
}

/// The memory budget of one job, handed to it as a context (as
/// `curve::Verification` is for its counters): two jobs in one process, each
/// run inside its own [`Budget::within`], are checked against different
/// budgets and their memos draw on different memo budgets (issue 49 item 6).
/// Jobs check their estimates on the thread that starts them
/// ([`check_budget`]); outside every `within` the process's budget holds
/// (`--max-memory`: the CLI, and its memory guard, which watches the whole
/// process) and memos share [`DEFAULT_MEMO_BYTES`].
#[derive(Clone, Debug)]
pub struct Budget {
    bytes: u64,
    /// Where the budget comes from, for refusals ("set by --max-memory 0.5", "the default").
    source: String,
    /// What the job's memos hold together (`search::memo::Memo`); clones share it.
    memo: Arc<SharedBudget>,
}

thread_local! {
    /// The budget of the job this thread currently runs, if any.
    static CURRENT: std::cell::RefCell<Option<Budget>> = const { std::cell::RefCell::new(None) };
}

/// Puts back the thread's previous budget when a [`Budget::within`] ends,
/// also when it unwinds.
struct RestoreBudget(Option<Budget>);

impl Drop for RestoreBudget {
    fn drop(&mut self) {
        let previous = self.0.take();
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

impl Budget {
    /// A budget of `bytes`, named in messages as `given` (e.g. `--max-memory
    /// 0.5`), its memos held to [`DEFAULT_MEMO_BYTES`] together.
    pub fn new(bytes: u64, given: impl Into<String>) -> Budget {
        Budget::with_source(bytes, format!("set by {}", given.into()))
    }

    /// The process's budget (`--max-memory`, else the default) as a job's,
    /// named in messages as the process's is, with a memo budget of its own.
    pub fn of_process() -> Budget {
        Budget::with_source(process_budget_bytes(), process_source())
    }

    fn with_source(bytes: u64, source: String) -> Budget {
        Budget { bytes, source, memo: Arc::new(SharedBudget::new(DEFAULT_MEMO_BYTES)) }
    }

    /// This budget with memos held to `bytes` together (`--memo-gib`), a memo
    /// budget of its own (not shared with the budget it was made from).
    /// Results do not depend on it: a larger memo budget keeps more
    /// transpositions (less recomputation, where ties are many: H_0 and H_∞
    /// MIX), a smaller one less memory.
    pub fn with_memo_bytes(self, bytes: u64) -> Budget {
        Budget { memo: Arc::new(SharedBudget::new(bytes)), ..self }
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The budget the memos of this job draw on.
    pub fn memo(&self) -> &Arc<SharedBudget> {
        &self.memo
    }

    /// Runs `job` with this budget current ([`budget_bytes`], [`check_budget`],
    /// [`memo_budget`] and their messages use it): on this thread, and on
    /// every thread of the job's own rayon pool, in which `job` runs, so the
    /// job's parallel parts see the same budget. The pool has as many threads
    /// as the pool it was called from. The previous budget is put back
    /// afterwards. If no pool can be started (no thread to spawn), `job` runs
    /// on this thread with the budget, its parallel parts on the caller's pool.
    pub fn within<R: Send>(&self, job: impl FnOnce() -> R + Send) -> R {
        let previous = CURRENT.with(|c| c.borrow_mut().replace(self.clone()));
        let _restore = RestoreBudget(previous);
        let budget = self.clone();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(rayon::current_num_threads())
            .start_handler(move |_| CURRENT.with(|c| *c.borrow_mut() = Some(budget.clone())))
            .build();
        match pool {
            Ok(pool) => pool.install(job),
            Err(_) => job(),
        }
    }
}

/// Bytes the memos of a job hold together unless its [`Budget`] says
/// otherwise (`--memo-gib`), and those of all memos outside every job.
pub const DEFAULT_MEMO_BYTES: u64 = 1 << 30;

/// The memo budget of the job this thread runs ([`Budget::within`]); outside
/// every job, one budget of [`DEFAULT_MEMO_BYTES`] that all such memos share.
pub fn memo_budget() -> Arc<SharedBudget> {
    if let Some(memo) = CURRENT.with(|c| c.borrow().as_ref().map(|b| b.memo.clone())) {
        return memo;
    }
    static OUTSIDE_JOBS: std::sync::OnceLock<Arc<SharedBudget>> = std::sync::OnceLock::new();
    OUTSIDE_JOBS.get_or_init(|| Arc::new(SharedBudget::new(DEFAULT_MEMO_BYTES))).clone()
}

/// Bytes held by the memos that draw on one budget (`search::memo::Memo`).
/// Invariant: `held` is the sum of the bytes the live memos of this budget
/// reserved and have not released, and never exceeds `limit` through
/// [`Self::reserve`].
#[derive(Debug)]
pub struct SharedBudget {
    limit: u64,
    held: AtomicU64,
}

impl SharedBudget {
    pub const fn new(limit: u64) -> Self {
        SharedBudget { limit, held: AtomicU64::new(0) }
    }

    /// The bytes the memos of this budget may hold together.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Bytes held now by all memos of this budget.
    pub fn held(&self) -> u64 {
        self.held.load(Ordering::Relaxed)
    }

    /// Adds `bytes` to what is held if they fit under the limit.
    pub fn reserve(&self, bytes: u64) -> bool {
        let fits = |held: u64| held.checked_add(bytes).filter(|&h| h <= self.limit);
        self.held.fetch_update(Ordering::Relaxed, Ordering::Relaxed, fits).is_ok()
    }

    /// Gives back `bytes` reserved earlier.
    pub fn release(&self, bytes: u64) {
        self.held.fetch_sub(bytes, Ordering::Relaxed);
    }
}

/// Where the process's budget comes from, for messages: "set by
/// --max-memory 0.5" (the user's text), or "the default".
fn process_source() -> String {
    match BUDGET.load(Ordering::Relaxed) {
        0 => "the default".to_string(),
        _ => {
            let given = GIVEN.lock().unwrap_or_else(|p| p.into_inner()).clone();
            format!("set by {}", given.unwrap_or_else(|| "the caller".into()))
        }
    }
}

/// The budget for a message: "25.6 MiB, set by --max-memory 0.025", or
/// "18.0 GiB, the default" when the user gave none.
pub fn budget_text() -> String {
    if let Some(b) = CURRENT.with(|c| c.borrow().clone()) {
        return format!("{}, {}", human_bytes(b.bytes), b.source);
    }
    format!("{}, {}", human_bytes(budget_bytes()), process_source())
}

/// The default budget from the text of `/proc/meminfo` and this process's
/// resident bytes: min(¾ · MemTotal, 9/10 · (MemAvailable + own)); ¾ ·
/// MemTotal if MemAvailable is missing (kernels before 3.14).
fn default_budget(meminfo: &str, own: u64) -> Option<u64> {
    let field = |name: &str| -> Option<u64> {
        let line = meminfo.lines().find(|l| l.starts_with(name))?;
        let kib: u64 = line[name.len()..].trim().strip_suffix("kB")?.trim().parse().ok()?;
        Some(kib * 1024)
    };
    let total = field("MemTotal:")? / 4 * 3;
    Some(field("MemAvailable:").map_or(total, |free| total.min((free + own) / 10 * 9)))
}

/// `b` bytes for a message: GiB, MiB or KiB with one decimal.
pub fn human_bytes(b: u64) -> String {
    match b {
        b if b >= 1 << 30 => format!("{:.1} GiB", b as f64 / (1u64 << 30) as f64),
        b if b >= 1 << 20 => format!("{:.1} MiB", b as f64 / (1u64 << 20) as f64),
        b => format!("{:.1} KiB", b as f64 / 1024.0),
    }
}

/// Refuses a job whose estimated size (`None`: beyond 2^64 bytes) exceeds the
/// budget, with the estimate in the message.
pub fn check_budget(what: &str, estimate: Option<u64>) -> crate::error::Result<()> {
    refuse_beyond(what, "about", estimate)
}

/// [`check_budget`] for a size known only from below (`None`: beyond 2^64
/// bytes): a refusal says "at least".
pub fn check_budget_at_least(what: &str, lower_bound: Option<u64>) -> crate::error::Result<()> {
    refuse_beyond(what, "at least", lower_bound)
}

fn refuse_beyond(what: &str, how: &str, estimate: Option<u64>) -> crate::error::Result<()> {
    match estimate {
        Some(b) if b <= budget_bytes() => Ok(()),
        _ => Err(beyond_budget(what, how, estimate)),
    }
}

/// The refusal of a job that would need `how` ("about", "at least")
/// `estimate` bytes (`None`: beyond 2^64), naming the budget.
pub fn beyond_budget(what: &str, how: &str, estimate: Option<u64>) -> crate::error::Error {
    crate::error::Error::TooLarge(format!(
        "{what} would need {} (the budget is {}; raise it with --max-memory GIB if the machine has it)",
        estimate.map_or("more than 16 EiB".to_string(), |b| format!("{how} {}", human_bytes(b))),
        budget_text()
    ))
}

/// What the process holds at its peak running a job whose live data peak at
/// `heap` bytes (`None`: beyond 2^64): its resident memory now (the program,
/// its threads, what earlier steps keep), the data, and what the allocator
/// holds beyond the data, [`allocator_reserve`]. The memory guard
/// (cli/memory_guard.rs) compares the same resident size against the budget.
pub fn process_bytes(heap: Option<u64>) -> Option<u64> {
    let heap = heap?;
    resident_bytes().unwrap_or(0).checked_add(heap)?.checked_add(allocator_reserve(heap, rayon::current_num_threads()))
}

/// [`process_bytes`] for a job whose worker threads allocate and free as
/// they go (a strategy walk's sets and partitions): each thread's freed
/// blocks stay resident until the allocator purges them (mimalloc: after a
/// delay, so the more a loaded machine delays the threads, the more is
/// held), about `freed_per_thread` bytes on each worker thread. Measured on
/// MM(5,5) LEX, 2 threads: peak resident 79–106 MiB as it runs, 44 MiB with
/// `MIMALLOC_PURGE_DELAY=0` (which costs half as much CPU again in purges).
pub fn churning_process_bytes(heap: Option<u64>, freed_per_thread: Option<u64>) -> Option<u64> {
    let threads = rayon::current_num_threads() as u64;
    process_bytes(heap)?.checked_add(freed_per_thread?.checked_mul(threads)?)
}

/// Resident bytes the allocator holds beyond `heap` live bytes on `threads`
/// worker threads: mimalloc gives each thread pages of its own and backs its
/// arena with 2 MiB pages (transparent huge pages), so a thread that
/// allocates holds up to [`RESERVE_PER_THREAD`] more than it uses, and no more
/// than the data themselves. Measured (peak resident minus the program and
/// the counted data): 20–35 MiB on 2 threads for MM(4,5) and MM(4,6).
pub fn allocator_reserve(heap: u64, threads: usize) -> u64 {
    (threads as u64).saturating_mul(RESERVE_PER_THREAD.min(heap.saturating_mul(4)))
}

/// See [`allocator_reserve`].
pub const RESERVE_PER_THREAD: u64 = 12 << 20;

/// The resident set size of this process now, in bytes (Linux: the second
/// field of `/proc/self/statm`, in pages of 4 KiB); `None` where the kernel
/// does not report it.
pub fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// The peak resident set size of this process so far, in bytes (Linux: `VmHWM`
/// of `/proc/self/status`); `None` where the kernel does not report it.
pub fn peak_resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    parse_vm_hwm(&status)
}

/// The `VmHWM:  1234 kB` line of a `/proc/<pid>/status` text, in bytes.
fn parse_vm_hwm(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.trim_start_matches("VmHWM:").trim().strip_suffix("kB")?.trim().parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default budget: three quarters of the machine, or nine tenths of
    /// what is free for this process when less (another job holds the rest).
    #[test]
    fn the_default_budget_leaves_room_for_other_jobs() {
        let gib = 1u64 << 30;
        let meminfo = |total: u64, free: u64| {
            format!(
                "MemTotal:       {} kB\nMemFree:  1 kB\nMemAvailable:   {} kB\n",
                total * gib / 1024,
                free * gib / 1024
            )
        };
        assert_eq!(default_budget(&meminfo(24, 23), 0), Some(18 * gib), "an idle machine: ¾ of 24 GiB");
        assert_eq!(default_budget(&meminfo(24, 10), 0), Some(9 * gib), "beside a 13 GiB job: 9/10 of 10 GiB");
        assert_eq!(default_budget(&meminfo(24, 8), 2 * gib), Some(9 * gib), "its own 2 GiB count as free for it");
        assert_eq!(default_budget("MemTotal: 4194304 kB\n", 0), Some(3 * gib), "no MemAvailable line");
        assert_eq!(default_budget("", 0), None);
    }

    #[test]
    fn peak_resident_size_is_read_from_the_status_text() {
        assert_eq!(
            parse_vm_hwm("Name:\trs\nVmPeak:\t 9 kB\nVmHWM:\t 6675716 kB\nVmRSS:\t 1 kB\n"),
            Some(6675716 * 1024)
        );
        assert_eq!(parse_vm_hwm("Name:\trs\n"), None);
        #[cfg(target_os = "linux")]
        {
            let ballast = vec![1u8; 64 << 20];
            let peak = peak_resident_bytes().expect("Linux reports VmHWM");
            assert!(peak >= 64 << 20 && ballast.iter().all(|&b| b == 1), "peak {peak} bytes after touching 64 MiB");
        }
    }
}
