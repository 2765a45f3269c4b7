//! Issue 49 item 6 (second half): a memory budget is a context handed to a
//! job (`memory::Budget::within`), not only the process's global, so two
//! jobs in one process are checked against their own budgets; outside every
//! job the process's budget (`--max-memory`) holds as before.

use rayon::prelude::*;
use renyi_search::games::mastermind::Mastermind;
use renyi_search::memory::{Budget, budget_bytes, budget_text};

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
