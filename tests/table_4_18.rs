//! Thesis Table 4.18, Mastermind columns: the best H_α-LEX over α > 0 on a 0.02
//! grid is 5680 (α ∈ [1.34, 1.36]) on MM-1296 and 1450 on MM-360.

use renyi_search::games::mastermind::Mastermind;
use renyi_search::renyi::alpha::Alpha;
use renyi_search::reproduce::table_4_18::best_renyi;

#[test]
fn best_renyi_mastermind() {
    let (full, _) = best_renyi(&Mastermind::new(4, 6, false).unwrap(), "4.3827").unwrap();
    assert_eq!(full.best_total, "5680");
    assert_eq!(full.best_alphas, vec![Alpha::ratio(134, 100).unwrap(), Alpha::ratio(136, 100).unwrap()]);
    assert!(full.best_mean.equal);
    let (junior, _) = best_renyi(&Mastermind::new(4, 6, true).unwrap(), "4.0278").unwrap();
    assert_eq!(junior.best_total, "1450");
    assert!(junior.best_mean.equal);
    assert_eq!(junior.best_alphas.first(), Some(&Alpha::ratio(68, 100).unwrap()));
    assert_eq!(junior.best_alphas.last(), Some(&Alpha::ratio(114, 100).unwrap()));
}
