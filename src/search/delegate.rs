//! Delegation that cannot skip a method: a game that is another game under
//! another name (Bulls and Cows is Mastermind without repetition) or another
//! game's view of one node ([`Subproblem`](super::subproblem::Subproblem))
//! implements [`Delegate`] and gets every capability of the game it stands
//! for. The capability traits are declared through [`delegating_trait!`],
//! which writes each trait and its forwarding impl from one list of methods,
//! so a method added to a capability is forwarded with it (a forward written
//! by hand beside a default would fall back to the default silently).

use super::problem::{AnswerId, QueryId, Rules, SearchProblem, Terminal};

/// A type whose capabilities ([`SpeedHooks`](super::capabilities::SpeedHooks),
/// [`Symmetry`](super::capabilities::Symmetry),
/// [`MemoKeys`](super::capabilities::MemoKeys),
/// [`TiePreference`](super::capabilities::TiePreference), and
/// [`Replay`](super::tree::Replay) and `Certify` under [`SameRules`]) are
/// those of [`Delegate::To`]. Its [`Rules`] must have the delegate's `State`
/// and `Set`; they are the delegate's with [`SameRules`], else its own.
pub trait Delegate: Sync {
    /// The game whose capabilities are used.
    type To: SearchProblem;
    /// The value of that game.
    fn delegate(&self) -> &Self::To;
}

/// A [`Delegate`] whose rules are the delegate's, so it differs from it only
/// in its [`Presentation`](super::problem::Presentation) (name and labels).
pub trait SameRules: Delegate {}

/// Every rule of a [`SameRules`] type is its delegate's. [`Rules`] has no
/// defaults: a rule missing here does not compile.
impl<D: SameRules> Rules for D {
    type State = <D::To as Rules>::State;
    type Set = <D::To as Rules>::Set;

    fn code_count(&self) -> usize {
        self.delegate().code_count()
    }
    fn query_count(&self) -> usize {
        self.delegate().query_count()
    }
    fn answer_count(&self) -> usize {
        self.delegate().answer_count()
    }
    fn initial_state(&self) -> Self::State {
        self.delegate().initial_state()
    }
    fn is_admissible(&self, state: &Self::State, query: QueryId) -> bool {
        self.delegate().is_admissible(state, query)
    }
    fn next_state(&self, state: &Self::State, query: QueryId) -> Self::State {
        self.delegate().next_state(state, query)
    }
    fn full_set(&self) -> Self::Set {
        self.delegate().full_set()
    }
    fn set_size(&self, set: &Self::Set) -> u64 {
        self.delegate().set_size(set)
    }
    #[inline]
    fn count_answers(&self, query: QueryId, set: &Self::Set, counts: &mut [u64]) {
        self.delegate().count_answers(query, set, counts)
    }
    fn split(&self, query: QueryId, set: &Self::Set) -> Vec<(AnswerId, Self::Set)> {
        self.delegate().split(query, set)
    }
    fn solving_answer(&self, query: QueryId) -> Option<AnswerId> {
        self.delegate().solving_answer(query)
    }
    fn terminal(&self, set: &Self::Set) -> Terminal {
        self.delegate().terminal(set)
    }
    fn root_class_key(&self, query: QueryId) -> u64 {
        self.delegate().root_class_key(query)
    }
}

/// Declares a trait whose methods a [`Delegate`] forwards, and that forward:
/// `impl<D> Trait for D where <bounds>` with every method calling the
/// delegate's. Required methods (no default) come first, then the provided
/// ones (with their default body); methods take `&self` and named arguments.
/// Methods in an optional last `own { … }` section (returning a value of the
/// type itself, `where Self: Sized`) are not forwarded: a delegate keeps their default.
///
/// ```text
/// delegating_trait! {
///     /// Docs of the trait.
///     pub trait Name: Supertrait;
///     delegated where { D: Delegate + …, <D as Delegate>::To: Name }
///     required { fn must(&self, q: QueryId) -> bool; }
///     provided { fn may(&self) -> u64 { 0 } }
/// }
/// ```
macro_rules! delegating_trait {
    (
        $(#[$tmeta:meta])*
        pub trait $name:ident: $sup:path;
        delegated where { $($bound:tt)* }
        required {
            $( $(#[$rmeta:meta])* fn $rf:ident(&$rs:ident $(, $ra:ident: $rt:ty)* $(,)?) $(-> $rr:ty)?; )*
        }
        provided {
            $( $(#[$pmeta:meta])* fn $pf:ident(&$ps:ident $(, $pa:ident: $pt:ty)* $(,)?) $(-> $pr:ty)? $pb:block )*
        }
        $(
            own {
                $( $(#[$ometa:meta])*
                   fn $of:ident(&$os:ident $(, $oa:ident: $ot:ty)* $(,)?) -> $or:ty where Self: Sized $ob:block )*
            }
        )?
    ) => {
        $(#[$tmeta])*
        pub trait $name: $sup {
            $( $(#[$rmeta])* fn $rf(&$rs $(, $ra: $rt)*) $(-> $rr)?; )*
            $( $(#[$pmeta])* fn $pf(&$ps $(, $pa: $pt)*) $(-> $pr)? $pb )*
            $($( $(#[$ometa])* fn $of(&$os $(, $oa: $ot)*) -> $or where Self: Sized $ob )*)?
        }

        impl<D> $name for D where $($bound)* {
            $(
                #[inline]
                fn $rf(&$rs $(, $ra: $rt)*) $(-> $rr)? {
                    $name::$rf($crate::search::delegate::Delegate::delegate($rs) $(, $ra)*)
                }
            )*
            $(
                #[inline]
                fn $pf(&$ps $(, $pa: $pt)*) $(-> $pr)? {
                    $name::$pf($crate::search::delegate::Delegate::delegate($ps) $(, $pa)*)
                }
            )*
        }
    };
}
pub(crate) use delegating_trait;
