fn main() {
    let mut sm = rtc::diag::SourceMap::new();
    let mut bad = 0;
    let mut n = 0;
    for path in std::env::args().skip(1) {
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        let id = sm.add(path.clone(), text.clone());
        n += 1;
        if let Err(d) = rtc::syntax::parse(&text, id) {
            bad += 1;
            println!("{}", d.short(&sm));
        }
    }
    println!("{n} files, {bad} failed");
}
