//! The output format of every command, one type: text for people, or (`--json`) JSON for
//! programs, rendered by one helper.

use crate::error::CliError;
use clap::builder::TypedValueParser as _;
use serde::Serialize;

/// How a command prints its result. Each command's `--json` flag is a field of this type,
/// declared with its own help line as
///
/// ```text
/// #[arg(long = "json", id = "json", action = clap::ArgAction::SetTrue,
///       value_parser = OutputFormat::flag())]
/// ```
///
/// and the result goes through [`OutputFormat::render`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum OutputFormat {
    /// The command's text, for people.
    #[default]
    Text,
    /// One JSON value on one line (`--json`).
    Json,
}

impl OutputFormat {
    /// The value parser of a `--json` flag: absent is [`OutputFormat::Text`], present is
    /// [`OutputFormat::Json`].
    pub fn flag() -> impl clap::builder::TypedValueParser<Value = OutputFormat> {
        clap::builder::BoolValueParser::new().map(|json| {
            if json {
                OutputFormat::Json
            } else {
                OutputFormat::Text
            }
        })
    }

    /// Whether this is JSON.
    pub fn is_json(self) -> bool {
        self == OutputFormat::Json
    }

    /// `value` as one line of JSON, ending in a newline.
    pub fn json_line<T: Serialize + ?Sized>(value: &T) -> Result<String, CliError> {
        let mut s = serde_json::to_string(value)?;
        s.push('\n');
        Ok(s)
    }

    /// The output of `value`: one line of JSON, or the text `text` makes of it.
    pub fn render<T: Serialize + ?Sized>(
        self,
        value: &T,
        text: impl FnOnce(&T) -> String,
    ) -> Result<String, CliError> {
        match self {
            OutputFormat::Json => OutputFormat::json_line(value),
            OutputFormat::Text => Ok(text(value)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// A command with a `--json` flag declared as every command declares it.
    #[derive(Parser)]
    struct Cmd {
        /// Print JSON
        #[arg(long = "json", id = "json", action = clap::ArgAction::SetTrue,
              value_parser = OutputFormat::flag())]
        format: OutputFormat,
    }

    #[test]
    fn the_flag_chooses_json_and_its_absence_text() {
        assert_eq!(Cmd::parse_from(["x"]).format, OutputFormat::Text);
        assert_eq!(Cmd::parse_from(["x", "--json"]).format, OutputFormat::Json);
        // A flag takes no value.
        assert!(Cmd::try_parse_from(["x", "--json=false"]).is_err());
    }

    #[test]
    fn render_writes_one_json_line_or_the_text() {
        // The JSON of a list of two strings is written by hand: `["a","b"]` and a newline.
        let list = ["a", "b"];
        let text = |l: &[&str; 2]| l.join(" ");
        assert_eq!(
            OutputFormat::Json.render(&list, text).unwrap(),
            "[\"a\",\"b\"]\n"
        );
        assert_eq!(OutputFormat::Text.render(&list, text).unwrap(), "a b");
    }
}
