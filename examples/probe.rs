use renyi_search::games::mastermind::Mastermind;
use renyi_search::search::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let tie = if args.get(1).map(|s| s.as_str()) == Some("mix") { TieRule::mix_by_root_class() } else { TieRule::lex() };
    for distinct in [false, true] {
        let mm = Mastermind::new(4, 6, distinct).unwrap();
        for a in ["0", "1", "2", "inf"] {
            let r = analyze(&mm, Strategy::new(a.parse().unwrap(), tie), RunOptions::default());
            println!("{} α={} {} total={} ({:.4}) first={:?} nodes={} {:.3}s", r.problem, a, r.tie_rule, r.total, r.total_decimal, &r.first_queries[..r.first_queries.len().min(3)], r.nodes_evaluated, r.seconds);
        }
    }
}
