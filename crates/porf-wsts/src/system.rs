//! The input: a program as one finite labelled transition system per thread.

/// A thread's step (Fig. 2 of the paper): silent, or a memory access with its values.
/// A failed compare-and-swap is a [`Label::Read`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Label {
    Silent,
    Read { loc: u8, val: u8 },
    Write { loc: u8, val: u8 },
    Rmw { loc: u8, read: u8, write: u8 },
}

/// One thread: states `0..trans.len()`, the initial one, and the transitions leaving
/// each state, `(label, target)`.
#[derive(Clone, Debug, Default)]
pub struct ThreadLts {
    pub init: u32,
    pub trans: Vec<Vec<(Label, u32)>>,
}

impl ThreadLts {
    pub fn len(&self) -> usize {
        self.trans.len()
    }
    pub fn is_empty(&self) -> bool {
        self.trans.is_empty()
    }
}

/// A bad global program state: per thread, a required state or `None` (any state).
pub type Target = Vec<Option<u32>>;

/// A program: threads in parallel (at most 60), locations `0..locs`, values
/// `0..vals`. If `gate` is set, thread 0 is an initialisation thread: no other thread
/// moves before thread 0 has reached a state in `gate_done` (its writes then
/// happen-before every other event, as a spawn would make them).
#[derive(Clone, Debug)]
pub struct System {
    pub threads: Vec<ThreadLts>,
    pub locs: u8,
    pub vals: u8,
    pub gate: bool,
    /// The states of thread 0 at which it has finished (used when `gate` is set).
    pub gate_done: Vec<u32>,
    /// The bad states (any of them).
    pub targets: Vec<Target>,
}

/// Which lossy memory system decides the question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// loSRA (Def. 5.9), equivalent to SRA (Theorems 4.9, 5.12).
    Sra,
    /// loWRA (Def. 6.5), equivalent to WRA (Theorems 4.6, 6.6).
    Wra,
}
