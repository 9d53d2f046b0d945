//! The `rtc` command line.

use std::process::ExitCode;

fn main() -> ExitCode {
    // Deeply nested models recurse in the front end; a large stack keeps that from ever
    // overflowing on input the parser accepts.
    let child = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(rtc::cli::main);
    match child.map(|c| c.join()) {
        Ok(Ok(code)) => ExitCode::from(code),
        _ => {
            eprintln!("rtc: internal error (please report it with the model that caused it)");
            ExitCode::from(101)
        }
    }
}
