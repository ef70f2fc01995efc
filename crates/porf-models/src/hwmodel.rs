//! The [`crate::MemoryModel`] implementation the hardware and kernel models share
//! ([`hardware_model!`]): each allows load buffering, reports no data races of porf's
//! kind (the kernel model raises herd's `data-race` flag through
//! [`crate::MemoryModel::flags`] instead), and answers `hb_view` with the po-prefix extended by
//! thread creation and join ([`crate::sc::po_sync_view`]: `{e}` ∪ the views of its
//! po-predecessor, its spawn for a start and the joined thread's last event for a join),
//! the only order every execution puts before `e` whatever its reads — what the
//! heap-lifetime checks need. A model gives its name, its incremental check (the
//! explorer's [`crate::MemoryModel::consistent_with`], which asks the whole model of
//! the whole graph, possibly without porf's RMW atomicity) and its whole check
//! ([`crate::MemoryModel::is_consistent`]), each a function of the graph, and any
//! further methods it overrides.

/// `hardware_model!(Ty, "name", incremental: |g| .., whole: |g| .., dependency_cycles:
/// forbidden|allowed [, extra: { fns }])` implements [`crate::MemoryModel`] for `Ty` as
/// the module docs say; `dependency_cycles` answers
/// [`crate::MemoryModel::forbids_dependency_cycles`].
macro_rules! hardware_model {
    (@cycles forbidden) => { true };
    (@cycles allowed) => { false };
    (
        $ty:ty, $name:literal,
        incremental: $inc:expr,
        whole: $whole:expr,
        dependency_cycles: $cycles:ident
        $(, extra: { $($extra:item)* })? $(,)?
    ) => {
        impl $crate::MemoryModel for $ty {
            fn name(&self) -> &'static str {
                $name
            }
            fn hb_view(&self, g: &porf_graph::Graph, e: porf_graph::EventId) -> porf_graph::View {
                $crate::sc::po_sync_view(g, e)
            }
            fn consistent_with(&self, g: &porf_graph::Graph, _e: porf_graph::EventId) -> bool {
                let check: fn(&porf_graph::Graph) -> bool = $inc;
                check(g)
            }
            fn is_consistent(&self, g: &porf_graph::Graph) -> bool {
                let check: fn(&porf_graph::Graph) -> bool = $whole;
                check(g)
            }
            fn allows_load_buffering(&self) -> bool {
                true
            }
            fn has_data_races(&self) -> bool {
                false
            }
            fn forbids_dependency_cycles(&self) -> bool {
                hardware_model!(@cycles $cycles)
            }
            $($($extra)*)?
        }
    };
}
