// The public API for a construction family outside this tree. An external
// project that find_package(iclproof)s includes this one header and
//   - declares its family once: ICLPROOF_FAMILY(id, "title", "paper reference");
//   - registers properties named "id.what_it_checks" with ICLPROOF_PROPERTY (harness/property.hpp),
//     bodies templated on the scalar, every construction passed to its check as a parameter;
//   - links its executable with iclproof::main (main = run_command_line) and, to keep the
//     built-in families too, iclproof::properties.
// That executable is the iclproof command line with the family added: its properties run in the
// same runner, `check --ci` gate and report (section "id", described by ICLPROOF_FAMILY) as the
// built-in ones. examples/external_family is a complete project.
#pragma once

#include "cli/command_line.hpp"
#include "harness/property.hpp"
#include "report/report_model.hpp"

// Declares family ID (a bare identifier, the prefix of its properties' names) for the report.
#define ICLPROOF_FAMILY(ID, TITLE, REFERENCE)                                  \
  static const ::iclproof::family_registrar iclproof_family_##ID##_registrar { \
    ::iclproof::family_info { #ID, TITLE, REFERENCE, "" }                      \
  }
