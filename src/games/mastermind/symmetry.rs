//! The colour × peg symmetries of Mastermind and the ones that map a set of
//! codes onto itself (thesis §4.3: the feedback of a guess is invariant under
//! renaming colours and permuting pegs, so queries in one orbit of a set's
//! stabilizer lead to equivalent subtrees).
//!
//! The stabilizer of a set can be huge (at the root of Bulls and Cows 4 of 10
//! it has 10!·4! = 87 M elements), so the search never lists it: it finds a
//! generating set by a stabilizer chain (one element per new image of each
//! base point: pegs first, then colours) and takes the orbits from the
//! generators. Memory is O(codes + generators).

use super::Mastermind;
use crate::search::CodeId;
use std::ops::ControlFlow;

/// A symmetry of Mastermind: the image of code x has colour `colour[x[peg[i]]]`
/// at peg i (feedback is invariant under it). Applying g and then h is the
/// symmetry with colour `h.colour ∘ g.colour` and peg `g.peg ∘ h.peg`.
pub(super) struct Symmetry {
    pub(super) colour: Vec<u8>,
    pub(super) peg: Vec<u8>,
}

/// Called with (colour map, peg map) of each symmetry found; breaks to stop.
type Visitor<'v> = dyn FnMut(&[u8], &[u8]) -> ControlFlow<()> + 'v;

/// A set of codes as the symmetry searches see it.
struct SetView<'a> {
    mm: &'a Mastermind,
    member: Vec<bool>,
    /// `counts[c·p + i]`: codes of the set with colour c at peg i. A symmetry
    /// fixing the set carries them over: N[c][peg[i]] = N[colour[c]][i].
    counts: Vec<u32>,
    /// `same_column[i·p + q]`: pegs i and q see the same multiset of colour
    /// counts (necessary for peg[i] = q).
    same_column: Vec<bool>,
    /// The set's codes by their largest colour: a code's image is known as
    /// soon as colours 0..=that one have their images.
    by_last: Vec<Vec<CodeId>>,
}

impl<'a> SetView<'a> {
    fn new(mm: &'a Mastermind, set: &[CodeId]) -> SetView<'a> {
        let (k, p) = (mm.colors, mm.pegs);
        let mut counts = vec![0u32; k * p];
        let mut member = vec![false; mm.codes.len()];
        let mut by_last = vec![Vec::new(); k];
        for &c in set {
            member[c as usize] = true;
            let code = &mm.codes[c as usize];
            code.iter().enumerate().for_each(|(i, &colour)| counts[colour as usize * p + i] += 1);
            by_last[*code.iter().max().expect("a code has pegs") as usize].push(c);
        }
        let column = |i: usize| {
            let mut col: Vec<u32> = (0..k).map(|c| counts[c * p + i]).collect();
            col.sort_unstable();
            col
        };
        let columns: Vec<Vec<u32>> = (0..p).map(column).collect();
        let same_column = (0..p * p).map(|x| columns[x / p] == columns[x % p]).collect();
        SetView { mm, member, counts, same_column, by_last }
    }

    /// Visits every symmetry fixing the set whose peg map starts with
    /// `peg_prefix` and whose colour map starts with `colour_prefix`, in
    /// lexicographic order of (peg, colour), until `visit` breaks.
    fn visit(&self, peg_prefix: &[u8], colour_prefix: &[u8], visit: &mut Visitor<'_>) -> ControlFlow<()> {
        let mut peg = Vec::with_capacity(self.mm.pegs);
        self.pegs_from(&mut peg, peg_prefix, colour_prefix, visit)
    }

    fn pegs_from(
        &self,
        peg: &mut Vec<u8>,
        peg_prefix: &[u8],
        colour_prefix: &[u8],
        visit: &mut Visitor<'_>,
    ) -> ControlFlow<()> {
        let (k, p) = (self.mm.colors, self.mm.pegs);
        let i = peg.len();
        if i == p {
            // options[c]: the colours whose counts equal colour c's counts moved by `peg`.
            let options: Vec<Vec<u8>> = (0..k)
                .map(|c| {
                    (0..k as u8)
                        .filter(|&d| {
                            (0..p).all(|i| self.counts[c * p + peg[i] as usize] == self.counts[d as usize * p + i])
                        })
                        .collect()
                })
                .collect();
            if options.iter().any(Vec::is_empty) {
                return ControlFlow::Continue(());
            }
            let mut colour = Vec::with_capacity(k);
            return self.colours_from(peg, &options, &mut colour, colour_prefix, visit);
        }
        for q in 0..p as u8 {
            let forced_out = i < peg_prefix.len() && peg_prefix[i] != q;
            if forced_out || peg.contains(&q) || !self.same_column[i * p + q as usize] {
                continue;
            }
            peg.push(q);
            let flow = self.pegs_from(peg, peg_prefix, colour_prefix, visit);
            peg.pop();
            flow?;
        }
        ControlFlow::Continue(())
    }

    fn colours_from(
        &self,
        peg: &[u8],
        options: &[Vec<u8>],
        colour: &mut Vec<u8>,
        colour_prefix: &[u8],
        visit: &mut Visitor<'_>,
    ) -> ControlFlow<()> {
        let c = colour.len();
        if c == options.len() {
            return visit(colour, peg);
        }
        for &d in &options[c] {
            if (c < colour_prefix.len() && colour_prefix[c] != d) || colour.contains(&d) {
                continue;
            }
            colour.push(d);
            let inside = self.by_last[c]
                .iter()
                .all(|&x| self.member.get(self.mm.image_parts(colour, peg, x) as usize).copied().unwrap_or(false));
            let flow = if inside {
                self.colours_from(peg, options, colour, colour_prefix, visit)
            } else {
                ControlFlow::Continue(())
            };
            colour.pop();
            flow?;
        }
        ControlFlow::Continue(())
    }

    /// Some symmetry fixing the set with these prefixes.
    fn find(&self, peg_prefix: &[u8], colour_prefix: &[u8]) -> Option<Symmetry> {
        let mut found = None;
        let _ = self.visit(peg_prefix, colour_prefix, &mut |colour, peg| {
            found = Some(Symmetry { colour: colour.to_vec(), peg: peg.to_vec() });
            ControlFlow::Break(())
        });
        found
    }
}

/// The orbit of `point` under the maps `maps` (each a permutation of 0..n).
fn orbit<'g>(point: u8, maps: impl Iterator<Item = &'g [u8]> + Clone) -> Vec<u8> {
    let mut orbit = vec![point];
    let mut next = 0;
    while next < orbit.len() {
        let x = orbit[next] as usize;
        for map in maps.clone() {
            if !orbit.contains(&map[x]) {
                orbit.push(map[x]);
            }
        }
        next += 1;
    }
    orbit
}

impl Mastermind {
    /// The code id of the image of `code` under `g`, if it is a code.
    pub(super) fn image(&self, g: &Symmetry, code: CodeId) -> u32 {
        self.image_parts(&g.colour, &g.peg, code)
    }

    /// [`Self::image`] from a colour map that covers at least the code's colours.
    fn image_parts(&self, colour: &[u8], peg: &[u8], code: CodeId) -> u32 {
        let x = &self.codes[code as usize];
        let value =
            (0..self.pegs).fold(0usize, |acc, i| acc * self.colors + colour[x[peg[i] as usize] as usize] as usize);
        self.id_of[value]
    }

    /// Generators of the colour × peg symmetries that map `set` onto itself
    /// (empty if only the identity does). Stabilizer chain with base
    /// (peg 0, …, peg p−1, colour 0, …, colour c−1), deepest level first: at
    /// each level one element is searched for every image of the base point
    /// not yet in its orbit under the generators found so far. Every element g
    /// of a level's group then has some h of the generated group with the same
    /// image of the base point, and g·h⁻¹ lies in the next level's group, which
    /// is generated by induction; so the generators generate the stabilizer.
    pub(super) fn stabilizer_generators(&self, set: &[CodeId]) -> Vec<Symmetry> {
        let (k, p) = (self.colors, self.pegs);
        let view = SetView::new(self, set);
        let identity_pegs: Vec<u8> = (0..p as u8).collect();
        let mut gens: Vec<Symmetry> = Vec::new();
        for i in (0..k).rev() {
            let same_counts = |x: usize| (0..p).all(|q| view.counts[i * p + q] == view.counts[x * p + q]);
            for x in (i + 1..k).filter(|&x| same_counts(x)) {
                if orbit(i as u8, gens.iter().map(|g| g.colour.as_slice())).contains(&(x as u8)) {
                    continue;
                }
                let mut prefix: Vec<u8> = (0..i as u8).collect();
                prefix.push(x as u8);
                gens.extend(view.find(&identity_pegs, &prefix));
            }
        }
        for j in (0..p).rev() {
            for y in (j + 1..p).filter(|&y| view.same_column[j * p + y]) {
                if orbit(j as u8, gens.iter().map(|g| g.peg.as_slice())).contains(&(y as u8)) {
                    continue;
                }
                let mut prefix: Vec<u8> = (0..j as u8).collect();
                prefix.push(y as u8);
                gens.extend(view.find(&prefix, &[]));
            }
        }
        gens
    }

    /// The least code of each orbit of the group generated by `gens`, for the
    /// codes `of` (`orbit_min[q]`; `u32::MAX` for codes not asked about).
    pub(super) fn orbit_minima(&self, gens: &[Symmetry], of: impl Iterator<Item = CodeId>) -> Vec<u32> {
        let mut orbit_min = vec![u32::MAX; self.codes.len()];
        let mut members = Vec::new();
        for q in of {
            if orbit_min[q as usize] != u32::MAX {
                continue;
            }
            members.clear();
            members.push(q);
            orbit_min[q as usize] = q;
            let mut next = 0;
            while next < members.len() {
                let x = members[next];
                for g in gens {
                    let y = self.image(g, x);
                    if orbit_min[y as usize] == u32::MAX {
                        orbit_min[y as usize] = y;
                        members.push(y);
                    }
                }
                next += 1;
            }
            let least = *members.iter().min().expect("q is a member");
            members.iter().for_each(|&y| orbit_min[y as usize] = least);
        }
        orbit_min
    }

    /// Calls `visit` with every colour × peg symmetry other than the identity
    /// that maps `set` onto itself, peg maps in lexicographic order and colour
    /// maps in lexicographic order within each (one at a time: the stabilizer
    /// is never held in memory). The tests check the generators against it.
    #[cfg(test)]
    fn for_each_stabilizer(&self, set: &[CodeId], visit: &mut dyn FnMut(&Symmetry)) {
        let identity = |v: &[u8]| v.iter().enumerate().all(|(i, &x)| i == x as usize);
        let _ = SetView::new(self, set).visit(&[], &[], &mut |colour, peg| {
            if !(identity(colour) && identity(peg)) {
                visit(&Symmetry { colour: colour.to_vec(), peg: peg.to_vec() });
            }
            ControlFlow::Continue(())
        });
    }

    /// Generators of the colour × peg symmetries as permutations of the code
    /// ids (which are the query ids): swaps of adjacent pegs (p − 1 of them),
    /// then swaps of adjacent colours (c − 1). Certificates name symmetries
    /// as words over these ([`Self::stabilizer_words`]).
    pub fn symmetry_generators(&self) -> Vec<Vec<CodeId>> {
        let (p, k) = (self.pegs, self.colors);
        let identity = |n: usize| (0..n as u8).collect::<Vec<u8>>();
        let swapped = |n: usize, i: usize| {
            let mut v = identity(n);
            v.swap(i, i + 1);
            v
        };
        let gens = (0..p.saturating_sub(1))
            .map(|i| Symmetry { colour: identity(k), peg: swapped(p, i) })
            .chain((0..k.saturating_sub(1)).map(|j| Symmetry { colour: swapped(k, j), peg: identity(p) }));
        gens.map(|g| (0..self.codes.len() as CodeId).map(|c| self.image(&g, c)).collect()).collect()
    }

    /// Symmetries other than the identity that map `set` onto itself, as
    /// words over [`Self::symmetry_generators`] (applied first to last): a
    /// subset of the stabilizer with the same orbits on the queries (the
    /// generators of [`Self::stabilizer_generators`], each kept only if it
    /// merges two orbits of those kept before).
    pub fn stabilizer_words(&self, set: &[CodeId]) -> Vec<Vec<u8>> {
        if set.len() < 2 {
            return Vec::new();
        }
        let mut root: Vec<u32> = (0..self.codes.len() as u32).collect();
        fn find(root: &mut [u32], mut x: u32) -> u32 {
            while root[x as usize] != x {
                root[x as usize] = root[root[x as usize] as usize];
                x = root[x as usize];
            }
            x
        }
        let mut words = Vec::new();
        for g in &self.stabilizer_generators(set) {
            let mut merged = false;
            for q in 0..self.codes.len() as u32 {
                let (a, b) = (find(&mut root, q), find(&mut root, self.image(g, q)));
                if a != b {
                    root[a.max(b) as usize] = a.min(b);
                    merged = true;
                }
            }
            if merged {
                words.push(self.word_of(g));
            }
        }
        words
    }

    /// `g` as a word over [`Self::symmetry_generators`]: its peg permutation
    /// by adjacent swaps of positions, its colour permutation by adjacent
    /// swaps of values (the two parts commute).
    pub(super) fn word_of(&self, g: &Symmetry) -> Vec<u8> {
        let mut pegs = g.peg.clone();
        let mut peg_word = Vec::new();
        while let Some(i) = (0..pegs.len().saturating_sub(1)).find(|&i| pegs[i] > pegs[i + 1]) {
            pegs.swap(i, i + 1);
            peg_word.push(i as u8);
        }
        let mut colour = g.colour.clone();
        let mut colour_word = Vec::new();
        let offset = self.pegs.saturating_sub(1) as u8;
        loop {
            let pos = |v: u8, c: &[u8]| c.iter().position(|&x| x == v).expect("a permutation");
            let Some(j) = (0..colour.len().saturating_sub(1) as u8).find(|&j| pos(j, &colour) > pos(j + 1, &colour))
            else {
                break;
            };
            let (a, b) = (pos(j, &colour), pos(j + 1, &colour));
            colour[a] = j + 1;
            colour[b] = j;
            colour_word.push(offset + j);
        }
        peg_word.reverse();
        colour_word.reverse();
        peg_word.extend(colour_word);
        peg_word
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::permutations;

    /// Every colour × peg symmetry other than the identity that fixes `set`, by brute force.
    fn brute_stabilizer(mm: &Mastermind, set: &[CodeId]) -> Vec<(Vec<u8>, Vec<u8>)> {
        let mut out = Vec::new();
        for peg in permutations(mm.pegs) {
            for colour in permutations(mm.colors) {
                let g = Symmetry { colour: colour.clone(), peg: peg.clone() };
                let identity = colour.iter().enumerate().all(|(i, &c)| i == c as usize)
                    && peg.iter().enumerate().all(|(i, &q)| i == q as usize);
                if !identity && set.iter().all(|&c| set.contains(&mm.image(&g, c))) {
                    out.push((peg.clone(), colour.clone()));
                }
            }
        }
        out.sort();
        out
    }

    fn listed(mm: &Mastermind, set: &[CodeId]) -> Vec<(Vec<u8>, Vec<u8>)> {
        let mut out = Vec::new();
        mm.for_each_stabilizer(set, &mut |g| out.push((g.peg.clone(), g.colour.clone())));
        out
    }

    /// Some sets of MM(3,4): all codes, the codes without A, the codes whose
    /// first two pegs agree, and pseudo-random subsets.
    fn sample_sets(mm: &Mastermind) -> Vec<Vec<CodeId>> {
        let all: Vec<CodeId> = (0..mm.codes.len() as CodeId).collect();
        let code = |c: &CodeId| mm.codes[*c as usize].clone();
        let mut sets = vec![
            all.clone(),
            all.iter().copied().filter(|c| !code(c).contains(&0)).collect(),
            all.iter().copied().filter(|c| code(c)[0] == code(c)[1]).collect(),
            all.iter().copied().filter(|c| code(c).iter().filter(|&&x| x == 0).count() == 1).collect(),
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for keep in [2u64, 3, 5] {
            sets.push(
                all.iter()
                    .copied()
                    .filter(|_| {
                        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        !(state >> 33).is_multiple_of(keep)
                    })
                    .collect(),
            );
        }
        sets
    }

    /// The listed stabilizer is exactly the brute-force one (sorted lists
    /// agree; on the full set it is the whole group less the identity), in
    /// lexicographic order.
    #[test]
    fn listed_stabilizer_matches_brute_force() {
        let mm = Mastermind::new(3, 4, false).unwrap();
        let sets = sample_sets(&mm);
        assert_eq!(listed(&mm, &sets[0]).len(), 24 * 6 - 1);
        assert_eq!(listed(&mm, &sets[1]).len(), 6 * 6 - 1);
        assert_eq!(listed(&mm, &sets[2]).len(), 24 * 2 - 1);
        for set in &sets {
            let got = listed(&mm, set);
            let mut sorted = got.clone();
            sorted.sort();
            assert_eq!(got, sorted, "lexicographic order");
            assert_eq!(got, brute_stabilizer(&mm, set));
        }
    }

    /// The generators' orbits are the orbits of the whole stabilizer: the
    /// least image of every code under the brute-force stabilizer.
    #[test]
    fn generators_give_the_stabilizer_orbits() {
        for (pegs, colours, distinct) in [(3, 4, false), (3, 5, true), (2, 4, false)] {
            let mm = Mastermind::new(pegs, colours, distinct).unwrap();
            for set in sample_sets(&mm) {
                let gens = mm.stabilizer_generators(&set);
                let brute = brute_stabilizer(&mm, &set);
                assert_eq!(gens.is_empty(), brute.is_empty());
                assert!(gens.len() < 2 * (pegs + colours), "{} generators", gens.len());
                let minima = mm.orbit_minima(&gens, 0..mm.codes.len() as CodeId);
                for q in 0..mm.codes.len() as CodeId {
                    let least = brute
                        .iter()
                        .map(|(peg, colour)| mm.image(&Symmetry { colour: colour.clone(), peg: peg.clone() }, q))
                        .fold(q, u32::min);
                    assert_eq!(minima[q as usize], least, "MM({pegs},{colours}) code {q}");
                }
            }
        }
    }

    /// Many pegs: the full set of MM(9,2) is fixed by all 2·9! symmetries, found
    /// from a handful of generators. A code with m A's lies in the orbit of
    /// A^a B^(9−a), a = max(m, 9 − m), its least member. MM(14,1) has one code,
    /// fixed by all 14! peg maps (13 generators).
    #[test]
    fn many_pegs_need_no_list_of_peg_maps() {
        let mm = Mastermind::new(9, 2, false).unwrap();
        let all: Vec<CodeId> = (0..mm.codes.len() as CodeId).collect();
        let gens = mm.stabilizer_generators(&all);
        assert!(!gens.is_empty() && gens.len() <= 9);
        let minima = mm.orbit_minima(&gens, all.iter().copied());
        for &q in &all {
            let m = mm.codes[q as usize].iter().filter(|&&c| c == 0).count();
            let a = m.max(9 - m);
            let least: Vec<u8> = (0..9).map(|i| u8::from(i >= a)).collect();
            assert_eq!(mm.codes[minima[q as usize] as usize], least);
        }
        let one = Mastermind::new(14, 1, false).unwrap();
        let gens = one.stabilizer_generators(&[0]);
        assert_eq!(gens.len(), 13, "one transposition-like generator per peg level");
        assert_eq!(one.orbit_minima(&gens, [0].into_iter()), vec![0]);
    }

    /// Every symmetry's word over the generators acts as the symmetry itself.
    #[test]
    fn words_act_as_their_symmetries() {
        let mm = Mastermind::new(3, 4, false).unwrap();
        let gens = mm.symmetry_generators();
        for colour in permutations(4) {
            for peg in permutations(3) {
                let g = Symmetry { colour: colour.clone(), peg: peg.clone() };
                let word = mm.word_of(&g);
                for c in 0..mm.codes.len() as CodeId {
                    let by_word = word.iter().fold(c, |x, &i| gens[i as usize][x as usize]);
                    assert_eq!(by_word, mm.image(&g, c), "{colour:?} {peg:?}");
                }
            }
        }
    }
}
