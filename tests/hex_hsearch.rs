//! H-search (Def 3.1 of seed 004) on the reconstructed graph of Satz 4.6 and on
//! small boards, checked against plain exhaustive play (Satz 4.1).

use renyi_search::connection::hex::graph::figure_4;
use renyi_search::connection::hex::hsearch::{Limits, h_search};
use renyi_search::connection::hex::plain::graph_connects;

#[test]
fn figure_4_counts_and_no_vc() {
    let (g, x, y) = figure_4();
    assert_eq!((g.len(), g.edge_count()), (24, 32));
    let found = h_search(&g, Limits::EXHAUSTIVE);
    assert_eq!(found.all(false).len(), 186);
    assert_eq!(found.all(true).len(), 568);
    assert!(found.vcs(x, y).is_empty() && found.scs(x, y).is_empty());
    // White connects x–y with Black to move (seed §9.10).
    assert!(graph_connects(&g, x, y, g.free(), false));
}
