//! Which sources make which library, read from a library's own gcc Makefile.
//!
//! The MSL names its C libraries (`ModelicaExternalC`, `ModelicaStandardTables`,
//! `ModelicaIO`, `ModelicaMatIO`, `zlib`) after archives its
//! `Resources/BuildProjects/gcc/Makefile` builds from several sources with per-source
//! defines (`-DTABLE_SHARE=1`, `-DHAVE_ZLIB=1`, …). rtc reads that Makefile rather than
//! carry a copy of its lists: variables (`NAME = …` with `\` continuations), the archive rule
//! `libL.a: $(OBJS)`, each object's explicit rule `X.o: path/X.c` or the pattern rule
//! `%.o: path/%.c`, and the `-D` and `-I` flags of the rule's command (after expanding its
//! variables). Compiler choice and optimisation flags are rtc's own (`clib`'s `FLAGS`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One source of a library and the preprocessor flags its rule gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    pub file: PathBuf,
    pub flags: Vec<String>,
}

struct Rule {
    target: String,
    prereqs: String,
    recipe: Vec<String>,
}

struct Makefile {
    dir: PathBuf,
    vars: HashMap<String, String>,
    rules: Vec<Rule>,
}

impl Makefile {
    fn parse(path: &Path) -> Option<Makefile> {
        let text = std::fs::read_to_string(path).ok()?;
        // Continuation lines joined.
        let mut lines: Vec<String> = Vec::new();
        let mut cur = String::new();
        for l in text.lines() {
            if let Some(head) = l.strip_suffix('\\') {
                cur.push_str(head);
                cur.push(' ');
            } else {
                cur.push_str(l);
                lines.push(std::mem::take(&mut cur));
            }
        }
        let mut vars = HashMap::new();
        let mut rules: Vec<Rule> = Vec::new();
        for l in lines {
            if l.trim_start().starts_with('#') || l.trim().is_empty() {
                continue;
            }
            if let Some(cmd) = l.strip_prefix('\t') {
                if let Some(r) = rules.last_mut() {
                    r.recipe.push(cmd.to_string());
                }
                continue;
            }
            if let Some((name, value)) = l.split_once('=') {
                if !name.contains(':') {
                    vars.insert(name.trim().to_string(), value.trim().to_string());
                    continue;
                }
            }
            if let Some((target, prereqs)) = l.split_once(':') {
                rules.push(Rule {
                    target: target.trim().to_string(),
                    prereqs: prereqs.trim().to_string(),
                    recipe: Vec::new(),
                });
            }
        }
        Some(Makefile {
            dir: path.parent()?.to_path_buf(),
            vars,
            rules,
        })
    }

    /// `$(NAME)` references replaced (to a fixed depth; unknown names are empty).
    fn expand(&self, s: &str) -> String {
        let mut s = s.to_string();
        for _ in 0..8 {
            let Some(i) = s.find("$(") else {
                break;
            };
            let Some(j) = s[i..].find(')') else {
                break;
            };
            let name = &s[i + 2..i + j];
            let value = self.vars.get(name).cloned().unwrap_or_default();
            s.replace_range(i..i + j + 1, &value);
        }
        s
    }

    fn flags(&self, recipe: &[String]) -> Vec<String> {
        let mut out = Vec::new();
        for l in recipe {
            for t in self.expand(l).split_whitespace() {
                let t = t.trim_matches('"');
                if t.starts_with("-D") {
                    out.push(t.to_string());
                } else if let Some(d) = t.strip_prefix("-I") {
                    let d = d.trim_matches('"');
                    out.push(format!("-I{}", self.dir.join(d).display()));
                }
            }
        }
        out
    }

    /// The sources of archive `libL.a`.
    fn library(&self, name: &str) -> Option<Vec<Source>> {
        let target = format!("lib{name}.a");
        let rule = self.rules.iter().find(|r| r.target == target)?;
        let mut out = Vec::new();
        for obj in self.expand(&rule.prereqs).split_whitespace() {
            let stem = obj.strip_suffix(".o")?;
            let explicit = self.rules.iter().find(|r| r.target == obj);
            let (file, recipe) = match explicit {
                Some(r) => (self.dir.join(self.expand(&r.prereqs).trim()), &r.recipe),
                None => {
                    let pattern = self.rules.iter().find(|r| r.target == "%.o")?;
                    let src = self.expand(&pattern.prereqs).replace('%', stem);
                    (self.dir.join(src.trim()), &pattern.recipe)
                }
            };
            if !file.is_file() {
                return None;
            }
            out.push(Source {
                file,
                flags: self.flags(recipe),
            });
        }
        (!out.is_empty()).then_some(out)
    }
}

/// The sources of library `name` by the gcc Makefile beside a source folder
/// (`Resources/BuildProjects/gcc/Makefile` for `Resources/C-Sources`), if it builds it.
pub fn sources(source_dir: &Path, name: &str) -> Option<Vec<Source>> {
    let mk = source_dir
        .parent()?
        .join("BuildProjects")
        .join("gcc")
        .join("Makefile");
    Makefile::parse(&mk)?.library(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Makefile of the MSL's form: variables with continuations, per-object rules with
    /// their defines, a pattern rule for a subfolder.
    #[test]
    fn a_library_is_its_archive_rules_sources_with_their_flags() {
        let root = std::env::temp_dir().join(format!("rtc-mk-{}", std::process::id()));
        let gcc = root.join("BuildProjects").join("gcc");
        let src = root.join("C-Sources");
        std::fs::create_dir_all(&gcc).unwrap();
        std::fs::create_dir_all(src.join("z")).unwrap();
        for f in ["A.c", "B.c", "z/c1.c"] {
            std::fs::write(src.join(f), "").unwrap();
        }
        std::fs::write(
            gcc.join("Makefile"),
            "CPPFLAGS = -DNDEBUG -DHAVE_X\nINC = -I\"../../C-Sources/z\"\n\nL_OBJS = \\\n\tA.o \\\n\tB.o\n\nZ_OBJS = c1.o\n\nlibL.a: $(L_OBJS)\n\t$(AR) $@ $(L_OBJS)\n\nlibZ.a: $(Z_OBJS)\n\t$(AR) $@\n\nA.o: ../../C-Sources/A.c\n\t$(CC) $(CPPFLAGS) -DSHARE=1 $(INC) -c -o $@ $<\n\nB.o: ../../C-Sources/B.c\n\t$(CC) $(CPPFLAGS) -c -o $@ $<\n\n%.o: ../../C-Sources/z/%.c\n\t$(CC) $(CPPFLAGS) -c -o $@ $<\n",
        )
        .unwrap();
        let l = sources(&src, "L").unwrap();
        assert_eq!(l.len(), 2);
        assert!(l[0].file.ends_with("C-Sources/A.c"));
        assert_eq!(&l[0].flags[..3], ["-DNDEBUG", "-DHAVE_X", "-DSHARE=1"]);
        assert!(l[0].flags[3].starts_with("-I") && l[0].flags[3].ends_with("C-Sources/z"));
        assert_eq!(l[1].flags, ["-DNDEBUG", "-DHAVE_X"]);
        let z = sources(&src, "Z").unwrap();
        assert!(z[0].file.ends_with("C-Sources/z/c1.c"));
        assert_eq!(sources(&src, "M"), None);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
