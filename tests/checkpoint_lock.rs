//! Issue (hardening) item 6: two runs given the same checkpoint both appended
//! and left duplicate units; now the second is refused while the first holds
//! the file, and the file is usable again once it is released.

use renyi_search::games::mastermind::Mastermind;
use renyi_search::search::units::{UnitRun, run_units};
use renyi_search::search::{RunOptions, Strategy, TieRule, analyze};

#[test]
fn a_locked_checkpoint_is_refused_and_released_after() {
    let path = std::env::temp_dir().join(format!("renyi-lock-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let mm = Mastermind::new(3, 4, false).unwrap();
    let strategy = Strategy::new("1".parse().unwrap(), TieRule::lex());
    let run =
        UnitRun { levels: 1, shard: "0/1".parse().unwrap(), checkpoint: Some(&path), progress: Default::default() };
    // Another run holds the checkpoint.
    let holder = std::fs::OpenOptions::new().create(true).append(true).open(&path).unwrap();
    holder.lock().unwrap();
    let Err(err) = run_units(&mm, strategy, &run) else { panic!("refused while locked") };
    assert!(err.to_string().contains("in use by another run"), "{err}");
    assert_eq!(std::fs::metadata(&path).unwrap().len(), 0, "nothing written while locked");
    drop(holder);
    // Released: the run works and its total is the whole analysis.
    let shard = run_units(&mm, strategy, &run).unwrap();
    let whole = analyze(&mm, strategy, RunOptions::default());
    let total: u64 = shard.units.iter().map(|u| u.codes).sum();
    assert_eq!(total, mm_codes(&mm));
    assert_eq!(whole.codes, total);
    let _ = std::fs::remove_file(&path);
}

fn mm_codes(mm: &Mastermind) -> u64 {
    use renyi_search::search::Rules;
    mm.code_count() as u64
}
