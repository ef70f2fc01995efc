//! `--model` or `--model-file FILE.cat`: the memory model a command runs under, a
//! native one by name or a cat file (herd7's language, `porf-cat`), its `include`s
//! searched next to the including file, then in the directories of `PORF_CAT_PATH`
//! (separated as the platform's `PATH`).

use porf_cat::CatModel;
use porf_models::MemoryModel;
use std::path::{Path, PathBuf};

/// The help text of `--model-file`.
pub const HELP: &str = "A memory model in herd7's cat language instead of --model: \
    the file's checks decide which executions are consistent (flags do not forbid; `porf litmus` prints those raised). \
    `include`s are looked up next to the including file, then in PORF_CAT_PATH's \
    directories. Data races are not reported under a cat model";

/// The chosen model: what explorers use, and the cat model itself if it is one.
pub struct Chosen {
    pub model: Box<dyn MemoryModel>,
    pub cat: Option<CatModel>,
    /// Its name for reports: the `--model` name, or `cat:STEM`.
    pub name: String,
}

/// The model named `name`, or the cat file `file` when given; a cat file that does
/// not load gives its `file:line:col: error: ...` message.
pub fn choose(name: &str, file: Option<&Path>) -> Result<Chosen, String> {
    let Some(file) = file else {
        let model = porf_models::by_name(name)
            .ok_or_else(|| format!("error: porf has no memory model `{name}`"))?;
        return Ok(Chosen {
            model,
            cat: None,
            name: name.to_string(),
        });
    };
    let cat = porf_cat::model_from_file(file, &search_path()).map_err(|e| e.to_string())?;
    Ok(Chosen {
        model: Box::new(cat.clone()),
        name: cat.name().to_string(),
        cat: Some(cat),
    })
}

impl Chosen {
    /// An error the cat model met while evaluating some execution (every answer is
    /// then void), as its message.
    pub fn runtime_error(&self) -> Option<String> {
        self.cat
            .as_ref()
            .and_then(|c| c.runtime_error())
            .map(|e| e.to_string())
    }
}

fn search_path() -> Vec<PathBuf> {
    std::env::var_os("PORF_CAT_PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default()
}
