//! Bulls and Cows (issue 27, item 3): the answers against a plain count on
//! digit strings for every (guess, secret) pair, the code lists, and the
//! H_1-LEX analysis of the classic game (4 distinct digits of 10).

use renyi_search::games::bulls_and_cows::BullsAndCows;
use renyi_search::renyi::alpha::Alpha;
use renyi_search::search::{CodeId, Presentation, Rules, Strategy, TieRule, analyze};

/// Every string of `digits` distinct digits below `symbols`, in increasing order.
fn digit_strings(digits: usize, symbols: usize) -> Vec<String> {
    let mut out = Vec::new();
    let max = 10usize.pow(digits as u32);
    for n in 0..max {
        let s = format!("{n:0width$}", width = digits);
        let ok = s.bytes().all(|b| ((b - b'0') as usize) < symbols)
            && s.bytes().enumerate().all(|(i, b)| !s.as_bytes()[..i].contains(&b));
        if ok {
            out.push(s);
        }
    }
    out
}

/// Bulls: same digit, same place; cows: a digit of the guess elsewhere in the secret.
fn plain_bulls_cows(guess: &[u8], secret: &[u8]) -> (usize, usize) {
    let bulls = guess.iter().zip(secret).filter(|(a, b)| a == b).count();
    let shared = guess.iter().filter(|d| secret.contains(d)).count();
    (bulls, shared - bulls)
}

#[test]
fn answers_equal_a_plain_count_on_digit_strings() {
    for (digits, symbols, codes) in [(4, 10, 5040), (3, 6, 120), (2, 5, 20)] {
        let game = BullsAndCows::new(digits, symbols).unwrap();
        let strings = digit_strings(digits, symbols);
        assert_eq!((game.code_count(), strings.len()), (codes, codes));
        for (i, s) in strings.iter().enumerate() {
            assert_eq!(game.code_label(i as CodeId), *s);
            assert_eq!(game.code_by_label(s), Some(i as CodeId));
        }
        for (g, guess) in strings.iter().enumerate() {
            for (s, secret) in strings.iter().enumerate() {
                let expected = plain_bulls_cows(guess.as_bytes(), secret.as_bytes());
                assert_eq!(game.bulls_cows(g as CodeId, s as CodeId), expected, "{guess} against {secret}");
            }
        }
        assert_eq!(game.name(), format!("Bulls and Cows ({digits} of {symbols})"));
    }
}

#[test]
fn bad_variants_are_refused() {
    let message = |digits, symbols| BullsAndCows::new(digits, symbols).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(message(4, 11).contains("at most 10"));
    assert!(message(5, 4).contains("distinct digits"));
    assert!(BullsAndCows::new(0, 4).is_err());
}

/// The classic game under H_1 with the LEX tie rule: first guess 0123,
/// total 26424 over 5040 codes (mean 5.2429), worst case 8.
#[test]
fn classic_game_under_h1_lex() {
    let game = BullsAndCows::new(4, 10).unwrap();
    let a = analyze(&game, Strategy::new(Alpha::integer(1), TieRule::lex()), Default::default());
    assert_eq!((a.total.as_str(), a.max_depth, a.first_queries.as_slice()), ("26424", 8, &["0123".to_string()][..]));
}
