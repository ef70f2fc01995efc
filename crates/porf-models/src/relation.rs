//! Explicit binary relations over the events of a graph, for the declarative checks.
//!
//! * [`Relation`]: a bit matrix over `0..n` with union, composition, closures and
//!   irreflexivity/acyclicity tests. Costs are O(n²/64) per row operation and
//!   O(n³/64) for composition and transitive closure: fine for ground truth, too slow
//!   for the incremental checks (which use views and DFS instead).
//! * [`EventIndex`]: the dense numbering of a graph's events used as matrix indices.
//! * [`Base`]: the primitive relations of an execution graph (po, sync, rf, co, fr,
//!   rmw), built from the graph alone. The implicit initialisation writes are not
//!   events: a read of the initialisation has no incoming rf edge and is fr-before
//!   every write of its location.

use porf_graph::{EventId, Graph, Label, LabelKind};

#[cfg(test)]
pub(crate) mod testkit;

/// Whether the graph on `0..succ.len()` with successor lists `succ` has no cycle
/// (Kahn's algorithm: acyclic iff repeatedly removing nodes without predecessors
/// removes every node), in O(nodes + edges). Duplicate edges are allowed.
pub fn successors_acyclic(succ: &[Vec<usize>]) -> bool {
    let mut preds = vec![0usize; succ.len()];
    for s in succ {
        for &j in s {
            preds[j] += 1;
        }
    }
    let mut ready: Vec<usize> = (0..succ.len()).filter(|&i| preds[i] == 0).collect();
    let mut removed = 0;
    while let Some(i) = ready.pop() {
        removed += 1;
        for &j in &succ[i] {
            preds[j] -= 1;
            if preds[j] == 0 {
                ready.push(j);
            }
        }
    }
    removed == succ.len()
}

/// A binary relation on `0..n`, as an `n × n` bit matrix (row-major, 64 bits a word).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Relation {
    n: usize,
    words: usize,
    bits: Vec<u64>,
}

impl Relation {
    /// The empty relation on `0..n`.
    pub fn empty(n: usize) -> Relation {
        let words = n.div_ceil(64);
        Relation {
            n,
            words,
            bits: vec![0; n * words],
        }
    }
    /// The identity on the elements satisfying `keep` (`[A]` in the papers).
    pub fn identity(n: usize, keep: impl Fn(usize) -> bool) -> Relation {
        let mut r = Relation::empty(n);
        for i in (0..n).filter(|&i| keep(i)) {
            r.add(i, i);
        }
        r
    }
    /// The relation `{(a, b) | f(a, b)}`.
    pub fn from_fn(n: usize, f: impl Fn(usize, usize) -> bool) -> Relation {
        let mut r = Relation::empty(n);
        for a in 0..n {
            for b in 0..n {
                if f(a, b) {
                    r.add(a, b);
                }
            }
        }
        r
    }
    /// Size of the carrier set.
    pub fn size(&self) -> usize {
        self.n
    }
    /// Row `i` as bits: `(i, b)` is in the relation iff bit `b % 64` of word `b / 64`
    /// is set (bits at `n` and above are zero).
    pub fn row(&self, i: usize) -> &[u64] {
        &self.bits[i * self.words..(i + 1) * self.words]
    }
    /// Adds `(i, b)` for every bit `b` set in `bits` (a row as [`Relation::row`] gives
    /// it; no bit at `n` or above).
    pub fn add_row(&mut self, i: usize, bits: &[u64]) {
        for (x, y) in self.row_mut(i).iter_mut().zip(bits) {
            *x |= y;
        }
    }
    fn row_mut(&mut self, i: usize) -> &mut [u64] {
        &mut self.bits[i * self.words..(i + 1) * self.words]
    }
    /// Every pair `(a, b)` of the relation, by `a` then `b`.
    pub fn pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.n).flat_map(move |a| self.successors(a).map(move |b| (a, b)))
    }
    /// `self ∩ other`.
    pub fn intersect(&self, other: &Relation) -> Relation {
        self.zip(other, |a, b| a & b)
    }
    /// `self \ other`.
    pub fn minus(&self, other: &Relation) -> Relation {
        self.zip(other, |a, b| a & !b)
    }
    fn zip(&self, other: &Relation, f: impl Fn(u64, u64) -> u64) -> Relation {
        assert_eq!(self.n, other.n);
        Relation {
            n: self.n,
            words: self.words,
            bits: self
                .bits
                .iter()
                .zip(&other.bits)
                .map(|(&a, &b)| f(a, b))
                .collect(),
        }
    }
    pub fn add(&mut self, a: usize, b: usize) {
        debug_assert!(a < self.n && b < self.n);
        self.bits[a * self.words + b / 64] |= 1 << (b % 64);
    }
    pub fn contains(&self, a: usize, b: usize) -> bool {
        self.bits[a * self.words + b / 64] >> (b % 64) & 1 == 1
    }
    /// The `b` with `(a, b)` in the relation, in increasing order.
    pub fn successors(&self, a: usize) -> impl Iterator<Item = usize> + '_ {
        self.row(a).iter().enumerate().flat_map(|(w, &word)| {
            let mut word = word;
            std::iter::from_fn(move || {
                (word != 0).then(|| {
                    let b = word.trailing_zeros() as usize;
                    word &= word - 1;
                    w * 64 + b
                })
            })
        })
    }
    pub fn is_empty(&self) -> bool {
        self.bits.iter().all(|&w| w == 0)
    }
    /// `self ∪ other`.
    pub fn union(&self, other: &Relation) -> Relation {
        let mut r = self.clone();
        r.union_with(other);
        r
    }
    pub fn union_with(&mut self, other: &Relation) {
        assert_eq!(self.n, other.n);
        for (a, b) in self.bits.iter_mut().zip(&other.bits) {
            *a |= b;
        }
    }
    /// `self ; other`: pairs `(a, c)` with `(a, b) ∈ self` and `(b, c) ∈ other`.
    pub fn compose(&self, other: &Relation) -> Relation {
        assert_eq!(self.n, other.n);
        let mut r = Relation::empty(self.n);
        for a in 0..self.n {
            let dst = a * self.words;
            for b in self.successors(a) {
                let src = b * self.words;
                for w in 0..self.words {
                    r.bits[dst + w] |= other.bits[src + w];
                }
            }
        }
        r
    }
    /// `self⁺`, by Warshall's algorithm on bit rows.
    pub fn closure(&self) -> Relation {
        let mut r = self.clone();
        let mut row_k = vec![0u64; self.words];
        for k in 0..self.n {
            row_k.copy_from_slice(r.row(k));
            for i in 0..self.n {
                if r.contains(i, k) {
                    for (x, y) in r.row_mut(i).iter_mut().zip(&row_k) {
                        *x |= y;
                    }
                }
            }
        }
        r
    }
    /// `self?`: the relation plus the identity.
    pub fn reflexive(&self) -> Relation {
        let mut r = self.clone();
        for i in 0..self.n {
            r.add(i, i);
        }
        r
    }
    /// Adds `(a, b)` to a transitively closed relation and keeps it closed: `a` and
    /// everything reaching `a` now reach `b` and everything `b` reaches. Returns false
    /// (and changes nothing) if the pair was already there. O(n²/64).
    pub fn insert_closed(&mut self, a: usize, b: usize) -> bool {
        if self.contains(a, b) {
            return false;
        }
        let mut row_b = self.row(b).to_vec();
        row_b[b / 64] |= 1 << (b % 64);
        for u in 0..self.n {
            if u == a || self.contains(u, a) {
                for (x, y) in self.row_mut(u).iter_mut().zip(&row_b) {
                    *x |= y;
                }
            }
        }
        true
    }
    /// `self*`.
    pub fn star(&self) -> Relation {
        self.closure().reflexive()
    }
    /// `self⁻¹`.
    pub fn inverse(&self) -> Relation {
        let mut r = Relation::empty(self.n);
        for a in 0..self.n {
            for b in self.successors(a) {
                r.add(b, a);
            }
        }
        r
    }
    /// The pairs of `self` satisfying `keep`.
    pub fn filter(&self, keep: impl Fn(usize, usize) -> bool) -> Relation {
        let mut r = Relation::empty(self.n);
        for a in 0..self.n {
            for b in self.successors(a) {
                if keep(a, b) {
                    r.add(a, b);
                }
            }
        }
        r
    }
    /// `[A]; self; [B]`.
    pub fn restrict(&self, dom: impl Fn(usize) -> bool, rng: impl Fn(usize) -> bool) -> Relation {
        self.filter(|a, b| dom(a) && rng(b))
    }
    pub fn is_irreflexive(&self) -> bool {
        (0..self.n).all(|i| !self.contains(i, i))
    }
    /// True iff the relation has no cycle.
    pub fn is_acyclic(&self) -> bool {
        self.find_cycle().is_none()
    }
    /// A cycle of the relation, as the elements along it, if there is one (iterative
    /// three-colour depth-first search, O(n²/64 + |R|)).
    pub fn find_cycle(&self) -> Option<Vec<usize>> {
        // 0 = unvisited, 1 = on the stack, 2 = done.
        let mut colour = vec![0u8; self.n];
        for root in 0..self.n {
            if colour[root] != 0 {
                continue;
            }
            colour[root] = 1;
            let mut stack: Vec<(usize, Vec<usize>)> = vec![(root, self.successors(root).collect())];
            while let Some((_, succs)) = stack.last_mut() {
                match succs.pop() {
                    Some(s) => match colour[s] {
                        0 => {
                            colour[s] = 1;
                            let next = self.successors(s).collect();
                            stack.push((s, next));
                        }
                        1 => {
                            let from = stack.iter().position(|(v, _)| *v == s).unwrap_or(0);
                            return Some(stack[from..].iter().map(|(v, _)| *v).collect());
                        }
                        _ => {}
                    },
                    None => {
                        let (node, _) = stack.pop().expect("non-empty");
                        colour[node] = 2;
                    }
                }
            }
        }
        None
    }
}

/// A dense numbering `0..len` of the events of a graph, thread by thread in po order.
#[derive(Clone, Debug)]
pub struct EventIndex {
    offsets: Vec<usize>,
    events: Vec<EventId>,
}

impl EventIndex {
    pub fn new(g: &Graph) -> EventIndex {
        let mut offsets = Vec::with_capacity(g.num_threads() as usize);
        let mut events = Vec::with_capacity(g.len());
        for t in 0..g.num_threads() {
            offsets.push(events.len());
            events.extend((0..g.thread_len(t)).map(|i| EventId::new(t, i)));
        }
        EventIndex { offsets, events }
    }
    pub fn len(&self) -> usize {
        self.events.len()
    }
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }
    /// The index of event `e` (which must be in the graph).
    pub fn of(&self, e: EventId) -> usize {
        self.offsets[e.tid as usize] + e.idx as usize
    }
    pub fn event(&self, i: usize) -> EventId {
        self.events[i]
    }
    /// The label of the `i`-th event.
    pub fn label<'g>(&self, g: &'g Graph, i: usize) -> &'g Label {
        g.label(self.events[i])
    }
}

/// The primitive relations of an execution graph, over [`EventIndex`] indices.
///
/// * `po`: program order, strict and transitive, within each thread.
/// * `sync`: a spawn event to the child's `Start`, and a child's last event (its
///   `Finish`) to every `Join` of that child. Not transitively closed.
/// * `rf`: write to read (reads of the initialisation have no edge).
/// * `co`: coherence, strict and transitive per location.
/// * `fr`: `rf⁻¹; co`, where a read of the initialisation is fr-before every write.
/// * `rmw`: the read part of an RMW to its write part.
#[derive(Clone, Debug)]
pub struct Base {
    pub idx: EventIndex,
    pub po: Relation,
    pub sync: Relation,
    pub rf: Relation,
    pub co: Relation,
    pub fr: Relation,
    pub rmw: Relation,
}

impl Base {
    /// The primitive relations of `g`, co and fr from the coherence order stored in `g`.
    pub fn new(g: &Graph) -> Base {
        let mut b = Base::without_co(g);
        let mut co = Relation::empty(b.len());
        for (_, info) in g.locations() {
            for (i, &w) in info.co.iter().enumerate() {
                for &w2 in &info.co[i + 1..] {
                    co.add(b.idx.of(w), b.idx.of(w2));
                }
            }
        }
        b.set_co(g, co);
        b
    }
    /// po, sync, rf and rmw of `g`, with co and fr empty: the coherence order stored in
    /// `g` is not read (rf mode supplies its own with [`Base::set_co`]).
    pub fn without_co(g: &Graph) -> Base {
        let idx = EventIndex::new(g);
        let n = idx.len();
        let mut po = Relation::empty(n);
        let mut sync = Relation::empty(n);
        let mut rf = Relation::empty(n);
        let mut rmw = Relation::empty(n);
        for i in 0..n {
            let e = idx.event(i);
            for j in i + 1..n {
                if idx.event(j).tid != e.tid {
                    break;
                }
                po.add(i, j);
            }
            let lab = g.label(e);
            match lab.kind {
                LabelKind::Start { parent: Some(p) } => sync.add(idx.of(p), i),
                LabelKind::Join { child } => {
                    let fin = g.last_of(child).expect("join of a missing thread");
                    sync.add(idx.of(fin), i);
                }
                LabelKind::Read { rf: Some(w), .. } => rf.add(idx.of(w), i),
                LabelKind::Write { .. } if lab.is_exclusive_write() => {
                    rmw.add(idx.of(crate::atomicity::read_part(e)), i);
                }
                _ => {}
            }
        }
        Base {
            idx,
            po,
            sync,
            rf,
            co: Relation::empty(n),
            fr: Relation::empty(n),
            rmw,
        }
    }
    /// Installs `co` (over this graph's writes; strict, transitive, relating writes of
    /// one location only; it may be partial) and derives `fr = rf⁻¹; co`, a read of the
    /// initialisation being fr-before every write of its location. Both are monotone in
    /// `co`: a partial order gives a subset of the fr of each of its linearisations.
    pub fn set_co(&mut self, g: &Graph, co: Relation) {
        let n = self.len();
        let mut fr = Relation::empty(n);
        for i in 0..n {
            if let LabelKind::Read { loc, rf: src, .. } = self.idx.label(g, i).kind {
                match src {
                    Some(w) => {
                        for w2 in co.successors(self.idx.of(w)) {
                            fr.add(i, w2);
                        }
                    }
                    None => {
                        for &w2 in &g.loc_info(loc).accesses {
                            if g.label(w2).is_write() {
                                fr.add(i, self.idx.of(w2));
                            }
                        }
                    }
                }
            }
        }
        self.co = co;
        self.fr = fr;
    }
    /// Number of events.
    pub fn len(&self) -> usize {
        self.idx.len()
    }
    pub fn is_empty(&self) -> bool {
        self.idx.is_empty()
    }
    /// `po ∪ rf ∪ sync`; its acyclicity is "no thin air".
    pub fn porf(&self) -> Relation {
        self.po.union(&self.rf).union(&self.sync)
    }
    /// The extended coherence order `(rf ∪ co ∪ fr)⁺`.
    pub fn eco(&self) -> Relation {
        self.rf.union(&self.co).union(&self.fr).closure()
    }
    /// Pairs of accesses (reads or writes) of one location, including `(a, a)`.
    pub fn same_loc(&self, g: &Graph) -> Relation {
        let locs: Vec<_> = (0..self.len())
            .map(|i| self.idx.label(g, i).loc())
            .collect();
        Relation::from_fn(self.len(), |a, b| locs[a].is_some() && locs[a] == locs[b])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(n: usize, pairs: &[(usize, usize)]) -> Relation {
        let mut r = Relation::empty(n);
        for &(a, b) in pairs {
            r.add(a, b);
        }
        r
    }

    #[test]
    fn closure_and_cycles() {
        let r = rel(70, &[(0, 1), (1, 65), (65, 3)]);
        let c = r.closure();
        assert!(c.contains(0, 3) && c.contains(1, 3) && !c.contains(3, 0));
        assert!(r.is_acyclic() && c.is_irreflexive());
        let cyc = r.union(&rel(70, &[(3, 0)]));
        assert!(!cyc.is_acyclic());
        assert!(!cyc.closure().is_irreflexive());
        assert_eq!(c.successors(0).collect::<Vec<_>>(), vec![1, 3, 65]);
    }

    #[test]
    fn compose_inverse_restrict() {
        let a = rel(4, &[(0, 1), (2, 3)]);
        let b = rel(4, &[(1, 2), (3, 0)]);
        assert_eq!(a.compose(&b), rel(4, &[(0, 2), (2, 0)]));
        assert_eq!(a.inverse(), rel(4, &[(1, 0), (3, 2)]));
        assert_eq!(a.restrict(|x| x == 2, |_| true), rel(4, &[(2, 3)]));
        assert_eq!(
            a.reflexive().compose(&b),
            rel(4, &[(0, 2), (2, 0), (1, 2), (3, 0)])
        );
        assert!(Relation::identity(4, |x| x == 1).contains(1, 1));
        assert!(Relation::empty(4).is_empty() && !a.is_empty());
    }

    #[test]
    fn insert_closed_keeps_the_closure() {
        let mut r = rel(70, &[(0, 1), (66, 67)]).closure();
        assert!(r.insert_closed(1, 66));
        assert_eq!(r, rel(70, &[(0, 1), (1, 66), (66, 67)]).closure());
        assert!(!r.insert_closed(0, 67));
        assert!(r.insert_closed(67, 0) && !r.is_irreflexive());
    }
}
