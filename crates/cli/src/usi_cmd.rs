//! `kshogi usi`: one call into the USI loop of `kshogi-usi`, with the databases opened.

use crate::error::CliError;
use crate::variant_select;
use clap::builder::TypedValueParser as _;
use clap::Args;
use kshogi_registry::{Registered, VariantKind};
use kshogi_report::databases;
use kshogi_usi as usi;

/// The arguments of `kshogi usi`.
#[derive(Debug, Args)]
pub struct UsiArgs {
    #[arg(long, value_name = "V", value_parser = variant_select::parse_variant_name,
          help = format!("The variant to start with, one of {}; `setoption name USI_Variant` \
                          changes it [default: {}]", VariantKind::names(), VariantKind::ALL[0]))]
    variant: Option<VariantKind>,
    /// A database to play from, of the variant its header names [default: the default
    /// path of each variant, where the file is there]
    #[arg(long, value_name = "FILE")]
    db: Option<std::path::PathBuf>,
    /// The letters of the moves written, the `Dialect` option's default, for clients that
    /// cannot set options (lishogi's reads the reference engine's: fsf) [default: canonical
    /// in USI mode, fsf in UCI mode]
    #[arg(long, value_name = "D",
          value_parser = clap::builder::PossibleValuesParser::new(["canonical", "fsf"])
              .map(|s| s.parse::<kshogi_notation::Dialect>().expect("a listed dialect")))]
    dialect: Option<kshogi_notation::Dialect>,
}

/// Runs `kshogi usi` on standard input and output until `quit` or end of input.
/// The databases come from `--db FILE` (which must open, as a database of the variant its
/// header names), else from the default paths, one per variant the solver indexes, where a
/// usable file is there; a damaged file there is reported on stderr and the engine plays
/// that variant by search.
pub fn run(args: &UsiArgs) -> Result<String, CliError> {
    let databases = match &args.db {
        Some(path) => databases::open_named(path)?,
        None => databases::open_defaults(|path, e| {
            eprintln!(
                "warning: the database {} cannot be used ({e}); playing by search",
                path.display()
            );
        }),
    };
    usi::serve_stdio(&usi::Config {
        variant: args.variant,
        mode: usi::SearchMode::Threaded,
        databases,
        dialect: args.dialect,
    });
    Ok(String::new())
}

/// Runs `usi` in the program of the one variant `V` ([`crate::run_single`]): the same loop,
/// with `USI_Variant` naming `V` alone, until `quit` or end of input.
pub fn run_single<V: Registered>(args: &UsiArgs) -> Result<String, CliError> {
    if args.db.is_some() {
        return Err(CliError::Usage(format!(
            "--db: kshogi solves no database of {}",
            V::NAME
        )));
    }
    usi::serve_variant_stdio::<V>(&usi::VariantConfig {
        mode: usi::SearchMode::Threaded,
        databases: usi::Databases::none(),
        dialect: args.dialect,
    });
    Ok(String::new())
}
