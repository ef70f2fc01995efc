//! The sections of a litmus file: header, init block, threads (their extent and
//! parameters), and the checks the grammar cannot make.

use super::*;

impl<'a> Parser<'a> {
    pub(super) fn litmus(&mut self) -> R<Litmus> {
        self.skip_trivia()?;
        let b = self.bytes();
        let start = self.pos;
        if start >= b.len() {
            return self.err_at(start, "empty file: expected `C NAME`");
        }
        let mut end = start;
        while end < b.len() && !b[end].is_ascii_whitespace() {
            end += 1;
        }
        let arch = &self.text[start..end];
        if arch != "C" {
            return self.err_at(
                start,
                format!("`{arch}` tests are not supported: porf reads C litmus tests (`C NAME`)"),
            );
        }
        self.pos = end;
        while self.pos < b.len() && matches!(b[self.pos], b' ' | b'\t' | b'\r') {
            self.pos += 1;
        }
        let nstart = self.pos;
        while self.pos < b.len() && !b[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        if nstart == self.pos {
            return self.err_at(nstart, "expected the test name after `C`");
        }
        let name = self.text[nstart..self.pos].to_string();
        let doc = self.preamble()?;
        let init = self.init()?;
        let threads = self.threads()?;
        let (locations, filter, cond, _kinds) = self.constraints()?;
        let lit = Litmus {
            file: self.file.clone(),
            text: self.text.to_string(),
            name,
            doc,
            init,
            threads,
            locations,
            filter,
            cond,
        };
        self.check(&lit)?;
        Ok(lit)
    }

    /// Between the name and the init block: a doc string, comments, herd's
    /// `Key=value` information lines, and lines of other text without a `{`, which
    /// herd's splitter skips too (a second header line, a note). A line holding a `{`
    /// after other text is an error: it is most likely a thread whose init block is
    /// missing.
    pub(super) fn preamble(&mut self) -> R<Option<String>> {
        let mut doc = None;
        loop {
            self.skip_trivia()?;
            let b = self.bytes();
            match b.get(self.pos) {
                Some(b'{') => return Ok(doc),
                Some(b'"') => {
                    let start = self.pos;
                    match self.text[start + 1..].find('"') {
                        Some(i) => {
                            doc = Some(self.text[start + 1..start + 1 + i].to_string());
                            self.pos = start + 2 + i;
                        }
                        None => return self.err_at(start, "unterminated doc string"),
                    }
                }
                Some(_) => {
                    let line_end = self.text[self.pos..]
                        .find('\n')
                        .map_or(b.len(), |i| self.pos + i);
                    let line = &self.text[self.pos..line_end];
                    let key_len = line.bytes().take_while(|&c| is_ident_char(c)).count();
                    let info = key_len > 0 && line[key_len..].trim_start().starts_with('=');
                    if info || !line.contains('{') {
                        self.pos = line_end;
                    } else {
                        return self.err_at(self.pos, "expected `{` starting the initial state");
                    }
                }
                None => {
                    return self.err_at(
                        self.pos,
                        "unexpected end of file: expected `{` starting the initial state",
                    )
                }
            }
        }
    }

    pub(super) fn init(&mut self) -> R<Vec<InitItem>> {
        self.expect("{", "starting the initial state")?;
        let mut items: Vec<InitItem> = Vec::new();
        loop {
            let mut toks = Vec::new();
            let term = loop {
                let (t, off) = self.next()?;
                match t {
                    Tok::Punct(";") | Tok::Punct("}") => break (t, off),
                    Tok::Eof => {
                        return self.err_at(off, "unexpected end of file in the initial state")
                    }
                    Tok::Punct("{") => {
                        return self.err_at(off, "array initial values are not supported")
                    }
                    _ => toks.push((t, off)),
                }
            };
            if !toks.is_empty() {
                let item = self.init_item(&toks, term.1)?;
                if let Some(old) = items.iter().find(|i| i.loc == item.loc) {
                    let p = old.pos;
                    return self.err_at(
                        toks[0].1,
                        format!(
                            "`{}` is initialised twice (first at line {}, column {})",
                            item.loc, p.line, p.col
                        ),
                    );
                }
                items.push(item);
            }
            if term.0 == Tok::Punct("}") {
                return Ok(items);
            }
        }
    }

    /// One item of the init block (tokens up to `;` or `}` at `end`).
    pub(super) fn init_item(&self, toks: &[(Tok, usize)], end: usize) -> R<InitItem> {
        let eq = toks.iter().position(|(t, _)| *t == Tok::Punct("="));
        let (lhs, rhs) = match eq {
            Some(i) => (&toks[..i], Some(&toks[i + 1..])),
            None => (toks, None),
        };
        if let (
            true,
            None,
            [ty @ .., (Tok::Ident(x), _), (Tok::Punct("["), _), (Tok::Num(n), _), (Tok::Punct("]"), _)],
        ) = (self.arrays, rhs, lhs)
        {
            let mut t = String::new();
            for (tok, off) in ty {
                let Tok::Ident(w) = tok else {
                    return self.err_at(*off, format!("unexpected {tok} in an array declaration"));
                };
                if !t.is_empty() {
                    t.push(' ');
                }
                t.push_str(w);
            }
            if t.is_empty() || *n <= 0 {
                return self.err_at(
                    toks[0].1,
                    "expected an array declaration `T x[N]` with N > 0",
                );
            }
            return Ok(InitItem {
                loc: Loc::Global(x.clone()),
                ty: Some(format!("{t}[{n}]")),
                value: Value::Int(0),
                pos: self.at(toks[0].1),
            });
        }
        let (loc, ty_toks) = self.init_loc(lhs)?;
        let mut ty = String::new();
        let mut stars = 0;
        for (t, off) in ty_toks {
            match t {
                Tok::Ident(s) if stars == 0 => {
                    if !ty.is_empty() {
                        ty.push(' ');
                    }
                    ty.push_str(s);
                }
                Tok::Punct("*") => stars += 1,
                _ => return self.err_at(*off, format!("unexpected {t} in the initial state")),
            }
        }
        if stars > 0 && ty.is_empty() {
            ty.push_str("int");
        }
        ty.push_str(&"*".repeat(stars));
        let value = match rhs {
            None => Value::Int(0),
            Some(r) => self.init_value(r, eq.map_or(end, |i| toks[i].1))?,
        };
        Ok(InitItem {
            loc,
            ty: (!ty.is_empty()).then_some(ty),
            value,
            pos: self.at(toks[0].1),
        })
    }

    /// Splits the left-hand side of an init item into the location (its last tokens)
    /// and the type tokens before it.
    pub(super) fn init_loc<'t>(&self, lhs: &'t [(Tok, usize)]) -> R<(Loc, &'t [(Tok, usize)])> {
        let n = lhs.len();
        let bad = |off| self.err_at(off, "expected a location (`x`, `[x]` or `0:r0`)");
        match lhs {
            [.., (Tok::Punct("["), _), (Tok::Ident(x), _), (Tok::Punct("]"), _)] => {
                Ok((Loc::Global(x.clone()), &lhs[..n - 3]))
            }
            [.., (t, off), (Tok::Punct(":"), _), (Tok::Ident(r), _)] => {
                let id = self.thread_id(t, *off)?;
                Ok((Loc::Reg(id, r.clone()), &lhs[..n - 3]))
            }
            [.., (Tok::Ident(x), _)] => Ok((Loc::Global(x.clone()), &lhs[..n - 1])),
            [.., (_, off)] => bad(*off),
            [] => bad(0),
        }
    }

    pub(super) fn thread_id(&self, t: &Tok, off: usize) -> R<u32> {
        let n = match t {
            Tok::Num(n) => Some(*n),
            Tok::Ident(s) => s.strip_prefix('P').and_then(|d| d.parse::<i64>().ok()),
            _ => None,
        };
        match n {
            Some(n) if (0..=u32::MAX as i64).contains(&n) => Ok(n as u32),
            _ => self.err_at(
                off,
                format!("expected a thread number before `:`, found {t}"),
            ),
        }
    }

    pub(super) fn init_value(&self, r: &[(Tok, usize)], eq_off: usize) -> R<Value> {
        match r {
            [(Tok::Num(v), _)] => Ok(Value::Int(*v)),
            [(Tok::Punct("&"), _), (Tok::Ident(x), _)] | [(Tok::Ident(x), _)] => {
                Ok(Value::Addr(x.clone()))
            }
            [(Tok::Ident(f), _), (Tok::Punct("("), _), inner @ .., (Tok::Punct(")"), _)]
                if f == "ATOMIC_INIT" || f == "ATOMIC_VAR_INIT" =>
            {
                self.init_value(inner, eq_off)
            }
            [] => self.err_at(eq_off, "expected a value after `=`"),
            [(t, off), ..] => self.err_at(
                *off,
                format!("expected an integer or `&location` as initial value, found {t}"),
            ),
        }
    }

    pub(super) fn threads(&mut self) -> R<Vec<Thread>> {
        let mut threads: Vec<Thread> = Vec::new();
        loop {
            self.skip_trivia()?;
            let save = self.pos;
            let (mut t, mut off) = self.next()?;
            if t == Tok::Ident("void".into()) {
                (t, off) = self.next()?;
                let is_thread = matches!(&t, Tok::Ident(s) if thread_name(s).is_some());
                if !is_thread {
                    return self.err_at(off, format!("expected a thread `P0 (...)`, found {t}"));
                }
            }
            let id = match &t {
                Tok::Ident(s) => thread_name(s),
                _ => None,
            };
            let Some(id) = id else {
                self.pos = save;
                break;
            };
            let (pt, poff) = self.peek()?;
            if pt != Tok::Punct("(") {
                if threads.is_empty() {
                    return self.err_at(poff, format!("expected `(` after `P{id}`, found {pt}"));
                }
                self.pos = save;
                break;
            }
            if let Some(old) = threads.iter().find(|th| th.id == id) {
                let p = old.pos;
                return self.err_at(
                    off,
                    format!("thread P{id} is defined twice (first at line {})", p.line),
                );
            }
            threads.push(self.thread(id, off)?);
        }
        if threads.is_empty() {
            self.skip_trivia()?;
            return self.err_at(self.pos, "expected a thread `P0 (...) { ... }`");
        }
        threads.sort_by_key(|t| t.id);
        for (i, t) in threads.iter().enumerate() {
            if t.id != i as u32 {
                let off = self.offset_of(t.pos);
                return self.err_at(
                    off,
                    format!("threads must be numbered P0, P1, ... without gaps (P{i} is missing)"),
                );
            }
        }
        Ok(threads)
    }

    pub(super) fn offset_of(&self, p: Pos) -> usize {
        self.lines[p.line as usize - 1] + p.col as usize - 1
    }

    /// A thread after its name: `(params) { body }`.
    pub(super) fn thread(&mut self, id: u32, name_off: usize) -> R<Thread> {
        let open = self.expect("(", "opening the parameter list")?;
        let close = self.matching(open, b'(', b')')?;
        let params = self.params(open + 1, close, id)?;
        self.pos = close + 1;
        self.skip_trivia()?;
        if self.peek_byte() != Some(b'{') {
            let (t, off) = self.peek()?;
            return self.err_at(
                off,
                format!("expected `{{` opening the body of P{id}, found {t}"),
            );
        }
        let lbrace = self.pos;
        let rbrace = self.matching(lbrace, b'{', b'}')?;
        self.pos = rbrace + 1;
        Ok(Thread {
            id,
            pos: self.at(name_off),
            params,
            params_start: open,
            body_start: lbrace + 1,
            body_end: rbrace,
        })
    }

    /// The offset of the bracket closing the one at `open`, skipping C comments and
    /// string and character literals.
    pub(super) fn matching(&self, open: usize, o: u8, c: u8) -> R<usize> {
        let b = self.bytes();
        let mut depth = 0usize;
        let mut i = open;
        while i < b.len() {
            match b[i] {
                q @ (b'"' | b'\'') => {
                    let s = i;
                    i += 1;
                    while i < b.len() && b[i] != q {
                        if b[i] == b'\n' {
                            return self.err_at(s, "unterminated literal");
                        }
                        i += if b[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b'/' if b.get(i + 1) == Some(&b'/') => {
                    while i < b.len() && b[i] != b'\n' {
                        i += 1;
                    }
                }
                b'/' if b.get(i + 1) == Some(&b'*') => match self.text[i + 2..].find("*/") {
                    Some(k) => i += 2 + k + 1,
                    None => return self.err_at(i, "unterminated comment `/*`"),
                },
                x if x == o => depth += 1,
                x if x == c => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(i);
                    }
                }
                _ => {}
            }
            i += 1;
        }
        self.err_at(open, format!("`{}` is never closed", o as char))
    }

    /// The parameters between `start` and `end` (exclusive).
    pub(super) fn params(&self, start: usize, end: usize, id: u32) -> R<Vec<Param>> {
        let text = &self.text[start..end];
        if text.trim().is_empty() || text.trim() == "void" {
            return Ok(Vec::new());
        }
        let mut params: Vec<Param> = Vec::new();
        let mut off = start;
        for part in text.split(',') {
            let lead = part.len() - part.trim_start().len();
            let p = part.trim();
            let pstart = off + lead;
            off += part.len() + 1;
            if p.is_empty() {
                return self.err_at(pstart, "empty parameter");
            }
            let pb = p.as_bytes();
            let mut e = pb.len();
            while e > 0 && is_ident_char(pb[e - 1]) {
                e -= 1;
            }
            let name = &p[e..];
            if name.is_empty() || !is_ident_start(pb[e]) {
                return self.err_at(pstart, format!("expected a parameter name in `{p}`"));
            }
            let ty = p[..e].trim();
            let name_off = pstart + e;
            if !ty.ends_with('*') {
                return self.err_at(
                    name_off,
                    format!("parameter `{name}` of P{id} must be a pointer to a location (e.g. `int* {name}`)"),
                );
            }
            if ty
                .bytes()
                .any(|c| !(is_ident_char(c) || c == b'*' || c.is_ascii_whitespace()))
            {
                return self.err_at(pstart, format!("unsupported parameter declaration `{p}`"));
            }
            if params.iter().any(|q| q.name == name) {
                return self.err_at(name_off, format!("parameter `{name}` is declared twice"));
            }
            params.push(Param {
                ty: ty.to_string(),
                name: name.to_string(),
                pos: self.at(name_off),
            });
        }
        Ok(params)
    }

    /// Checks what the grammar cannot: conditions and `locations` name existing
    /// threads, initial registers belong to existing threads.
    pub(super) fn check(&self, l: &Litmus) -> R<()> {
        let n = l.threads.len() as u32;
        let mut locs: Vec<(Loc, Pos)> = l.locations.clone();
        if let Some(f) = &l.filter {
            f.locs(&mut locs);
        }
        l.cond.prop.locs(&mut locs);
        locs.extend(l.init.iter().map(|i| (i.loc.clone(), i.pos)));
        for (loc, p) in locs {
            if let Loc::Reg(t, _) = &loc {
                if *t >= n {
                    return self.err_at(
                        self.offset_of(p),
                        format!("`{loc}` names thread P{t}, but the test has {n} thread(s)"),
                    );
                }
            }
        }
        Ok(())
    }
}
