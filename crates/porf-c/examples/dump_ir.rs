//! Prints the IR of a C file: `cargo run -p porf-c --example dump_ir -- file.c [-DN=3]`.
use porf_c::ir::{InstKind, Module};

fn main() {
    let mut opts = porf_c::FrontOptions::default();
    let mut file = None;
    for a in std::env::args().skip(1) {
        match a.strip_prefix("-D") {
            Some(d) => opts.defines.push(d.to_string()),
            None => file = Some(a),
        }
    }
    let Some(file) = file else {
        eprintln!("usage: dump_ir FILE.c [-DNAME=VALUE]...");
        std::process::exit(2);
    };
    match porf_c::compile_file(std::path::Path::new(&file), &opts) {
        Ok(m) => {
            print(&m);
            if let Err(e) = porf_c::program::validate(&m) {
                eprintln!("invalid IR: {e}");
                std::process::exit(4);
            }
        }
        Err(d) => {
            eprintln!("{d}");
            std::process::exit(3);
        }
    }
}

fn print(m: &Module) {
    println!("files: {:?}", m.files);
    for (a, c) in &m.cells {
        println!(
            "cell {a:#x} {} {:?} init={} atomic={}",
            c.name, c.ty, c.init, c.atomic
        );
    }
    println!("globals_end {:#x}; main = f{}", m.globals_end, m.main);
    for (i, f) in m.funcs.iter().enumerate() {
        println!(
            "\nf{i} {}(params {}) regs {} loops {} frame {} @{}:{}",
            f.name, f.nparams, f.nregs, f.nloops, f.frame_size, f.src.line, f.src.col
        );
        for (j, b) in f.blocks.iter().enumerate() {
            println!("  b{j}:");
            for inst in &b.insts {
                let k = match &inst.kind {
                    InstKind::Assert { cond, msg } => format!("Assert {cond:?} {msg:?}"),
                    k => format!("{k:?}"),
                };
                println!(
                    "    {:<90} ; {}:{}:{}",
                    k, inst.src.file, inst.src.line, inst.src.col
                );
            }
            println!(
                "    {:<90} ; {}:{}",
                format!("{:?}", b.term),
                b.term_src.line,
                b.term_src.col
            );
        }
    }
}
