//! The table of options: names, types, the handshake and reading values.

use super::*;

#[test]
fn every_name_is_declared_once() {
    // Two declarations answering to one name would make `setoption` ambiguous.
    for (i, a) in OPTIONS.iter().enumerate() {
        for b in &OPTIONS[i + 1..] {
            for x in [a.usi, a.uci] {
                for y in [b.usi, b.uci] {
                    assert!(!same_option_name(x, y), "`{x}` and `{y}` name one option");
                }
            }
        }
    }
}

#[test]
fn names_match_in_both_protocols_and_any_case() {
    assert_eq!(find("skill level").map(|d| d.opt), Some(Opt::SkillLevel));
    assert_eq!(find("Skill_Level").map(|d| d.opt), Some(Opt::SkillLevel));
    assert_eq!(
        find("uci_analysemode").map(|d| d.opt),
        Some(Opt::AnalyseMode)
    );
    assert_eq!(
        find("USI_AnalyseMode").map(|d| d.opt),
        Some(Opt::AnalyseMode)
    );
    assert_eq!(find("hash").map(|d| d.opt), Some(Opt::Hash));
    assert_eq!(find("variantpath").map(|d| d.opt), Some(Opt::VariantPath));
    // The standard options' names without their prefix, as the match runner checks them.
    assert_eq!(find("Variant").map(|d| d.opt), Some(Opt::Variant));
    assert_eq!(find("USI_MultiPV").map(|d| d.opt), Some(Opt::MultiPv));
    assert!(find("Nope").is_none());
}

#[test]
fn values_are_checked_against_the_type() {
    let skill = find("Skill Level").unwrap();
    assert_eq!(
        skill.read("Skill Level", Some(" -4 ")),
        Ok(OptionValue::Int(-4))
    );
    let e = skill.read("Skill Level", Some("21")).unwrap_err();
    assert_eq!(
        e,
        OptionError::NotInRange {
            name: "Skill Level".into(),
            min: -20,
            max: 20,
            found: "21".into()
        }
    );
    let e = e.to_string();
    assert!(e.contains("from -20 to 20") && e.contains("`21`"), "{e}");
    let wdl = find("UCI_ShowWDL").unwrap();
    assert_eq!(
        wdl.read("UCI_ShowWDL", Some("True")),
        Ok(OptionValue::Bool(true))
    );
    assert!(wdl.read("UCI_ShowWDL", Some("yes")).is_err());
    let multipv = find("MultiPV").unwrap();
    assert_eq!(multipv.read("MultiPV", Some("3")), Ok(OptionValue::Int(3)));
    assert!(multipv.read("MultiPV", Some("33")).is_err());
    assert!(multipv.read("MultiPV", Some("x")).is_err());
    assert!(multipv.read("MultiPV", None).is_err());
}

#[test]
fn help_names_every_option() {
    let help = help_text();
    for d in OPTIONS {
        assert!(help.contains(d.usi) && help.contains(d.uci), "{}", d.usi);
    }
}
