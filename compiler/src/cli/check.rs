//! `rtc check` and `rtc flatten`.

use super::{load_model, out, print_diagnostics, ModelArgs};
use crate::pipeline;

pub(crate) fn check(args: &ModelArgs) -> u8 {
    let Some((model, sources)) = load_model(args) else {
        return 1;
    };
    match pipeline::check_model(&model) {
        Ok(summary) => {
            out(&format!("{}\n", summary.line(&model)));
            for n in &model.notes {
                out(&format!("  {n}\n"));
            }
            0
        }
        Err(diags) => {
            print_diagnostics(&diags, &sources, args.short_diagnostics);
            1
        }
    }
}

pub(crate) fn flatten(args: &ModelArgs) -> u8 {
    let Some((model, _)) = load_model(args) else {
        return 1;
    };
    out(&model.print());
    0
}
