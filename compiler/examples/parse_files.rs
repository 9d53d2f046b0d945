//! Parses each file given on the command line and reports the ones that fail: a quick way to
//! measure the grammar on a third-party library (`find LIB -name '*.mo' | xargs parse_files`).

fn main() {
    let mut bad = 0;
    let mut n = 0;
    for path in std::env::args().skip(1) {
        n += 1;
        let text = match std::fs::read(&path).map(String::from_utf8) {
            Ok(Ok(t)) => t,
            Ok(Err(_)) => {
                bad += 1;
                println!("{path}: not UTF-8");
                continue;
            }
            Err(e) => {
                bad += 1;
                println!("{path}: {e}");
                continue;
            }
        };
        let p = path.clone();
        let result = rtc::pipeline::with_stack_for(&text.clone(), move || {
            let mut sm = rtc::diag::SourceMap::new();
            let id = sm.add(p, text.clone());
            rtc::syntax::parse(&text, id).err().map(|d| d.short(&sm))
        });
        match result {
            Ok(None) => {}
            Ok(Some(msg)) => {
                bad += 1;
                println!("{msg}");
            }
            Err(e) => {
                bad += 1;
                println!("{path}: {e:?}");
            }
        }
    }
    println!("{n} files, {bad} failed");
}
