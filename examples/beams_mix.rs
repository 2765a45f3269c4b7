use renyi_search::games::beams::game::{Beams, ColourOffer, Penalty, QueryOrder};
use renyi_search::games::beams::patterns::enumerate;
use renyi_search::search::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = args[1].parse().unwrap();
    let alpha = args[2].parse().unwrap();
    for offer in [ColourOffer::ReducedWeighted, ColourOffer::ReducedUnweighted, ColourOffer::All] {
        let g = Beams::new(enumerate(variant), QueryOrder::ColourFirst, Penalty::BestGuess).unwrap().with_offer(offer);
        let r = analyze(&g, Strategy::new(alpha, TieRule::mix()), RunOptions::default());
        println!("{offer:?} {} α={} total={} mean={:.6} nodes={} {:.1}s", r.problem, r.alpha, r.total, r.mean, r.nodes_evaluated, r.seconds);
    }
}
