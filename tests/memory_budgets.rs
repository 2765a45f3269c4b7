//! Issue 49 item 6 (second half): a memory budget is a context handed to a
//! job (`memory::Budget::within`), not only the process's global, so two
//! jobs in one process are checked against their own budgets; outside every
//! job the process's budget (`--max-memory`) holds as before. The memo
//! budget (`--memo-gib`) is part of the same context.

use rayon::prelude::*;
use renyi_search::games::mastermind::Mastermind;
use renyi_search::memory::{Budget, budget_bytes, budget_text, memo_budget};
use renyi_search::search::memo::{BUDGET_BYTES, Memo};

/// MM(4,6) needs about 43 MiB (its table, walk and the process): refused
/// under 1 MiB, built under 16 GiB, by two jobs running at once.
#[test]
fn two_jobs_in_one_process_carry_their_own_budgets() {
    let small = Budget::new(1 << 20, "--max-memory 0.0009765625");
    let large = Budget::new(16 << 30, "--max-memory 16");
    let process = budget_bytes();
    let (refused, built) = std::thread::scope(|s| {
        let a = s.spawn(|| small.within(|| Mastermind::new(4, 6, false).map(|_| budget_bytes())));
        let b = s.spawn(|| large.within(|| Mastermind::new(4, 6, false).map(|_| budget_bytes())));
        (a.join().unwrap(), b.join().unwrap())
    });
    let err = refused.unwrap_err().to_string();
    assert!(err.contains("MM(4,6) (1296 codes: its answer table"), "{err}");
    assert!(err.contains("(the budget is 1.0 MiB, set by --max-memory 0.0009765625;"), "{err}");
    assert_eq!(built.unwrap(), 16 << 30);
    // Nested: the inner job's budget, then the outer's again; outside both the process's.
    large.within(|| {
        assert_eq!(small.within(budget_bytes), 1 << 20);
        assert_eq!((budget_bytes(), budget_text()), (16 << 30, "16.0 GiB, set by --max-memory 16".to_string()));
    });
    assert_eq!(budget_bytes(), process);
}

/// The parallel parts of a job (rayon workers) see the job's budget, not the
/// process's: every one of 64 parallel items reads 3 MiB inside the job.
#[test]
fn the_parallel_parts_of_a_job_see_its_budget() {
    let job = Budget::new(3 << 20, "--max-memory 0.0029296875");
    let seen: Vec<u64> = job.within(|| (0..64).into_par_iter().map(|_| budget_bytes()).collect());
    assert_eq!(seen, vec![3 << 20; 64]);
    let outside: Vec<u64> = (0..64).into_par_iter().map(|_| budget_bytes()).collect();
    assert!(outside.iter().all(|&b| b == budget_bytes() && b != 3 << 20), "{outside:?}");
}

/// Two jobs run at once with memo budgets of 64 KiB and 4 MiB, each filling
/// a memo from its parallel parts with the same 20 000 entries: every part of
/// each job sees its own limit, the small job's memo never holds more than
/// 64 KiB (it starts afresh when full) while the large one keeps every
/// entry, and neither counts the other's bytes (with one process-wide memo
/// budget they shared the count). Outside both, the default holds.
#[test]
fn two_jobs_in_one_process_carry_their_own_memo_budgets() {
    let small = Budget::of_process().with_memo_bytes(64 << 10);
    let large = Budget::of_process().with_memo_bytes(4 << 20);
    let fill = |job: &Budget| {
        job.within(|| {
            let limits: Vec<u64> = (0..64).into_par_iter().map(|_| memo_budget().limit()).collect();
            let memo: Memo<u64, u64> = Memo::new(true);
            (0..20_000u64).into_par_iter().for_each(|k| memo.insert(k, k, 0));
            let stored = (0..20_000u64).filter(|k| memo.get(k).is_some()).count() as u64;
            (limits, memo.bytes(), memo_budget().held(), stored)
        })
    };
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| fill(&small));
        let b = s.spawn(|| fill(&large));
        (a.join().unwrap(), b.join().unwrap())
    });
    let (base, entry) = (Memo::<u64, u64>::base_bytes(), Memo::<u64, u64>::slot_bytes());
    assert_eq!(a.0, vec![64 << 10; 64]);
    assert!(a.1 <= 64 << 10 && a.2 == a.1, "small job: memo {} bytes, budget held {}", a.1, a.2);
    assert!(a.3 > 0 && a.3 <= ((64 << 10) - base) / entry, "small job: {} entries kept", a.3);
    assert_eq!(b.0, vec![4 << 20; 64]);
    assert_eq!((b.1, b.2, b.3), (base + 20_000 * entry, base + 20_000 * entry, 20_000), "large job");
    assert_eq!(memo_budget().limit(), BUDGET_BYTES);
}
