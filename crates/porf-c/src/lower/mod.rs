//! Type-checking and lowering of the `lang-c` AST to the IR of [`crate::ir`].
//!
//! One pass over the translation unit in source order (C's scoping), after a pre-scan
//! that numbers every function definition so calls may precede definitions. Sub-modules:
//! `decl` (specifiers, declarators, declarations), `init` (initializers), `stmt`
//! (statements and control flow), `expr` and `ops` (expressions), `float` (floating
//! constants, conversions and conditions), `builtins` (library calls recognised by
//! name; `realloc` the copy loop of `realloc`), `builder` (IR construction), `globals`
//! (layout and cells), `local_names` (names of the frames' objects).
//!
//! Invariants: every diagnostic carries the original position of the construct it is
//! about; nothing outside the supported subset is lowered silently; expressions that
//! must be constant are lowered into a scratch builder and accepted only if they
//! folded to a constant without emitting code.

mod alloc_names;
mod asm;
mod atomic_record;
mod bitfield;
mod builder;
mod builtins;
mod byval;
mod cond;
mod dat3m;
mod decl;
mod escape;
mod expr;
mod float;
mod globals;
mod ilp32;
mod init;
mod lazy;
mod literals;
mod local_names;
mod memcpy_s;
mod memfns;
mod mutex;
mod ops;
mod print;
mod realloc;
mod sprintf;
mod stmt;
mod tags;
mod vla;

use crate::diag::{DiagKind, Diagnostic};
use crate::ir::{self, FuncId, Module, Operand, Reg, Terminator};
use crate::srcmap::SrcMap;
use crate::types::{CType, FuncSig, RecordId, Types};
use builder::FnBuilder;
use lang_c::ast::{ExternalDeclaration, TranslationUnit};
use porf_graph::SrcLoc;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

pub(crate) type R<T> = Result<T, Diagnostic>;

/// Where a local variable lives.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Home {
    /// A register: a scalar whose address is never taken.
    Reg(Reg),
    /// Thread-private frame memory at this offset.
    Frame(u32),
    /// The activation's shared frame at this offset: a local whose address may reach
    /// another thread (`escape`).
    Shared(u32),
    /// A block of its own, allocated each time its declaration is reached (a shared
    /// local without initializer that can be declared again in one activation, see
    /// `ir::InstKind::LocalBlock`); the register holds its current address.
    Own(Reg),
}

/// What an ordinary identifier denotes.
#[derive(Clone, Debug)]
pub(crate) enum Binding {
    Local {
        ty: CType,
        home: Home,
    },
    Global(usize),
    Func(usize),
    Typedef(CType),
    Enum(i64),
    /// A file-scope name whose declaration uses an unsupported construct: each use
    /// is that diagnostic (`lazy`).
    Poison(Rc<Diagnostic>),
}

/// What a struct/union/enum tag denotes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Tag {
    Record(RecordId),
    Enum,
}

#[derive(Default)]
pub(crate) struct Scope {
    names: HashMap<String, Binding>,
    tags: HashMap<String, Tag>,
}

/// A global variable (file-scope or block-scope `static`).
pub(crate) struct Global {
    pub name: String,
    pub ty: CType,
    pub addr: Option<i64>,
    /// Has a (possibly tentative) definition, i.e. a declaration without `extern`.
    pub defined: bool,
    pub initialized: bool,
    pub used: bool,
    /// Offset of its first declaration.
    pub span: usize,
    /// The strictest `_Alignas` of its declarations (1 without one).
    pub align: u64,
    /// `_Thread_local`: `addr` is then an offset into the thread-local template, and
    /// each thread's copy lives at `Module::tls_addr(tid, addr)`.
    pub tls: bool,
}

/// A declared function.
pub(crate) struct FuncDecl {
    pub name: String,
    pub sig: Rc<FuncSig>,
    /// Its id if the translation unit defines it.
    pub def: Option<FuncId>,
}

/// Per-function lowering state besides the builder.
#[derive(Default)]
pub(crate) struct FnState {
    pub ret: Option<CType>,
    pub is_main: bool,
    pub addr_taken: HashSet<String>,
    /// Names used where a pointer may escape to another thread ([`escape`]): such
    /// locals in memory live in the shared frame.
    pub escapes: HashSet<String>,
    /// For a function returning a struct or union: the register holding the address
    /// its result is copied to (the hidden last parameter, see `byval`).
    pub sret: Option<Reg>,
    /// Label name → (block, defined, offset of first use).
    pub labels: HashMap<String, (ir::BlockId, bool, usize)>,
    /// Per enclosing switch: case/default label offset → block.
    pub switches: Vec<HashMap<usize, ir::BlockId>>,
    /// Variable-length arrays (`vla`): address register → (length operand, element
    /// size).
    pub vla_len: HashMap<Reg, (Operand, u64)>,
    /// A `__VERIFIER_loop_bound` hint waiting for the next loop statement: the operand
    /// holding its bound plus one, and the call's offset (`dat3m`).
    pub loop_hint: Option<(Operand, usize)>,
}

pub(crate) struct Cx<'a> {
    pub map: &'a SrcMap,
    pub types: Types,
    scopes: Vec<Scope>,
    pub globals: Vec<Global>,
    /// Globals with linkage, by name.
    pub global_names: HashMap<String, usize>,
    pub funcs: Vec<FuncDecl>,
    pub func_names: HashMap<String, usize>,
    /// Function definitions found by the pre-scan.
    pub def_ids: HashMap<String, FuncId>,
    bodies: Vec<Option<ir::Function>>,
    /// Direct calls of each defined function: (callee, offset of the call, arguments).
    calls: Vec<Vec<(FuncId, usize, usize)>>,
    pub next_addr: i64,
    /// Scalar cells of the globals laid out so far.
    pub cell_count: u64,
    /// Initial values of global scalars by address (absent: zero).
    pub image: HashMap<i64, i64>,
    /// Bytes of the thread-local template laid out so far.
    pub tls_size: i64,
    /// Initial values of thread-local scalars by template offset (absent: zero).
    pub tls_image: HashMap<i64, i64>,
    /// Warnings so far, formatted (see `Module::warnings`).
    pub warnings: Vec<String>,
    /// The static array of each distinct string literal (contents with the final 0).
    pub strings: HashMap<Vec<u8>, usize>,
    pub b: FnBuilder,
    pub f: FnState,
    /// Name of the function being lowered (for static locals).
    pub fname: Option<String>,
    /// The register the last `malloc`/`calloc` call's result went to, with the call's
    /// source location (see [`Cx::note_alloc_type`]).
    pub last_alloc: Option<(ir::Reg, SrcLoc)>,
    /// `Module::alloc_types` so far.
    pub alloc_types: HashMap<SrcLoc, ir::HeapType>,
    /// Functions whose signature used an unsupported construct: their body is that
    /// error, and calls to them are not checked against a parameter count.
    pub stubs: HashSet<FuncId>,
    /// The `_Alignas` of the declaration being lowered (1 without one).
    pub align_req: u64,
    /// Pointer-width checks under ILP32 (`ilp32`).
    pub ilp32: ilp32::Ilp32State,
}

/// Lowers a parsed translation unit.
pub fn lower_unit(unit: &TranslationUnit, map: &SrcMap) -> Result<Module, Diagnostic> {
    let mut cx = Cx {
        map,
        types: Types::default(),
        scopes: vec![Scope::default()],
        globals: Vec::new(),
        global_names: HashMap::new(),
        funcs: Vec::new(),
        func_names: HashMap::new(),
        def_ids: HashMap::new(),
        bodies: Vec::new(),
        calls: Vec::new(),
        next_addr: ir::addr::GLOBAL_BASE,
        cell_count: 0,
        image: HashMap::new(),
        tls_size: 0,
        tls_image: HashMap::new(),
        warnings: Vec::new(),
        strings: HashMap::new(),
        b: FnBuilder::new(0),
        f: FnState::default(),
        fname: None,
        last_alloc: None,
        alloc_types: HashMap::new(),
        stubs: HashSet::new(),
        align_req: 1,
        ilp32: ilp32::Ilp32State::default(),
    };
    cx.prescan(unit)?;
    for ed in &unit.0 {
        match &ed.node {
            ExternalDeclaration::Declaration(d) => cx.file_declaration(d)?,
            ExternalDeclaration::StaticAssert(sa) => cx.static_assert(sa)?,
            ExternalDeclaration::FunctionDefinition(fd) => cx.function_definition(fd)?,
        }
    }
    cx.finish()
}

impl<'a> Cx<'a> {
    pub fn err<T>(&self, off: usize, msg: impl Into<String>) -> R<T> {
        Err(self.map.diag(DiagKind::Malformed, off, msg))
    }

    pub fn unsup<T>(&self, off: usize, msg: impl Into<String>) -> R<T> {
        Err(self.map.diag(DiagKind::Unsupported, off, msg))
    }

    /// Records a front-end warning at `off` (a construct accepted the way gcc accepts
    /// it, with a warning), formatted `file:line:col: warning: msg` (`Module::warnings`).
    pub fn warn(&mut self, off: usize, msg: impl Into<String>) {
        let d = self.map.diag(DiagKind::Unsupported, off, msg);
        self.warnings.push(format!(
            "{}:{}:{}: warning: {}",
            d.file, d.line, d.col, d.message
        ));
    }

    /// Sets the source location of the instructions emitted next.
    pub fn at(&mut self, off: usize) {
        self.b.loc = self.map.loc(off);
    }

    pub fn show(&self, t: &CType) -> String {
        self.types.show(t)
    }

    pub fn push_scope(&mut self) {
        self.scopes.push(Scope::default());
    }

    pub fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    pub fn lookup(&self, name: &str) -> Option<&Binding> {
        self.scopes.iter().rev().find_map(|s| s.names.get(name))
    }

    /// The binding of `name` in the innermost scope only.
    pub fn lookup_here(&self, name: &str) -> Option<&Binding> {
        self.scopes.last().and_then(|s| s.names.get(name))
    }

    /// An error if `name` is already declared in the innermost scope, other than as a
    /// function (a local object's declaration, at `off`).
    pub fn fresh_local(&self, name: &str, off: usize) -> R<()> {
        if self
            .lookup_here(name)
            .is_some_and(|b| !matches!(b, Binding::Func(_)))
        {
            return self.err(off, format!("redefinition of `{name}`"));
        }
        Ok(())
    }

    pub fn bind(&mut self, name: &str, b: Binding) {
        if let Some(s) = self.scopes.last_mut() {
            s.names.insert(name.to_string(), b);
        }
    }

    pub fn lookup_tag(&self, name: &str) -> Option<Tag> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.tags.get(name).copied())
    }

    pub fn lookup_tag_here(&self, name: &str) -> Option<Tag> {
        self.scopes.last().and_then(|s| s.tags.get(name).copied())
    }

    pub fn bind_tag(&mut self, name: &str, t: Tag) {
        if let Some(s) = self.scopes.last_mut() {
            s.tags.insert(name.to_string(), t);
        }
    }

    /// Runs `f` with a fresh builder whose code is discarded; also reports whether `f`
    /// emitted nothing (i.e. its result, if a constant, is a constant expression).
    pub fn scratch<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<(T, bool)> {
        let mut fresh = FnBuilder::new(0);
        fresh.loc = self.b.loc;
        fresh.nregs = self.b.nregs;
        let saved = std::mem::replace(&mut self.b, fresh);
        self.ilp32.scratch += 1;
        let r = f(self);
        self.ilp32.scratch -= 1;
        let pure = self.b.emitted == 0 && self.b.nblocks() == 1;
        self.b = saved;
        Ok((r?, pure))
    }

    /// Records the definitions of all functions, so calls may precede them.
    fn prescan(&mut self, unit: &TranslationUnit) -> R<()> {
        for ed in &unit.0 {
            if let ExternalDeclaration::FunctionDefinition(fd) = &ed.node {
                let d = &fd.node.declarator;
                let Some((name, off)) = decl::declarator_name(&d.node) else {
                    return self.err(d.span.start, "function definition without a name");
                };
                if self.def_ids.contains_key(&name) {
                    return self.err(off, format!("redefinition of function `{name}`"));
                }
                self.def_ids.insert(name, self.bodies.len() as FuncId);
                self.bodies.push(None);
                self.calls.push(Vec::new());
            }
        }
        Ok(())
    }

    /// Installs a finished function body.
    pub fn install(&mut self, id: FuncId, f: ir::Function, calls: Vec<(FuncId, usize, usize)>) {
        self.bodies[id as usize] = Some(f);
        self.calls[id as usize] = calls;
    }

    fn finish(mut self) -> R<Module> {
        let Some(&main) = self.def_ids.get("main") else {
            let file = self.map.files()[0].clone();
            return Err(Diagnostic::new(
                DiagKind::Malformed,
                file,
                1,
                1,
                "no definition of `main`",
            ));
        };
        let bodies: Vec<ir::Function> = std::mem::take(&mut self.bodies)
            .into_iter()
            .map(|f| f.expect("every pre-scanned definition is lowered"))
            .collect();
        self.check_calls(&bodies)?;
        let (cells, globals_end, tls) = self.global_cells()?;
        Ok(Module {
            funcs: bodies,
            main,
            cells,
            globals_end,
            tls,
            files: self.map.files().to_vec(),
            bundled: self
                .map
                .files()
                .iter()
                .map(|f| crate::headers::is_bundled(f))
                .collect(),
            warnings: std::mem::take(&mut self.warnings),
            loops: Vec::new(),
            back_edges: Vec::new(),
            oblivious: Vec::new(),
            alloc_types: std::mem::take(&mut self.alloc_types),
            readonly: self.readonly_ranges(),
        })
    }

    /// Rejects direct calls whose argument count differs from the callee's definition
    /// (possible through `f()` declarations). Recursion is allowed: the interpreter
    /// bounds it at run time (`RunOptions::recursion_limit`).
    fn check_calls(&self, bodies: &[ir::Function]) -> R<()> {
        for calls in &self.calls {
            for &(g, off, nargs) in calls {
                if self.stubs.contains(&g) {
                    continue;
                }
                let want = bodies[g as usize].nparams as usize;
                if nargs != want && !(bodies[g as usize].variadic && nargs > want) {
                    let name = self.name_of(g);
                    return self.err(
                        off,
                        format!(
                            "`{name}` is called with {nargs} arguments but defined with {want}"
                        ),
                    );
                }
            }
        }
        Ok(())
    }

    /// The address ranges of the string literals' arrays (`Module::readonly`).
    fn readonly_ranges(&self) -> Vec<(i64, i64)> {
        let mut v: Vec<(i64, i64)> = self
            .strings
            .iter()
            .filter_map(|(bytes, &gi)| {
                let a = self.globals[gi].addr?;
                Some((a, a + bytes.len() as i64))
            })
            .collect();
        v.sort_unstable();
        v
    }

    fn name_of(&self, id: FuncId) -> &str {
        self.def_ids
            .iter()
            .find(|(_, &i)| i == id)
            .map_or("?", |(n, _)| n.as_str())
    }

    /// Returns from a function whose end is reachable.
    pub fn fallthrough(&self) -> Terminator {
        match &self.f.ret {
            _ if self.f.is_main => Terminator::Return(Some(Operand::Const(0))),
            Some(t) if t.is_void() => Terminator::Return(None),
            _ => Terminator::Unreachable,
        }
    }
}

#[cfg(test)]
mod tests;
mod varargs;
