// SPDX-License-Identifier: GPL-2.0-or-later
// The output files of a tune (--report, --boot-local, --hdparm-conf, --udev-rules).
#pragma once

#include "results/report.hpp"
#include "tuner/run_error.hpp"
#include "tuner/run/tune_options.hpp"

#include <iosfwd>

namespace disktune::tuner {

/// Check every output path before the run (check_output_path): at most one is stdout ("-"),
/// and none names the same file as another output or as a file the run reads or keeps
/// (--journal, --sim-profile, a sim:FILE capture; compared with same_file). Throws
/// UsageError or RunError(exit 2) naming the options and the path.
void check_tune_outputs(const TuneOptions& tune);

/// True when one of the outputs is stdout (the table then goes to stderr).
bool tune_output_to_stdout(const TuneOptions& tune);

/// Write every output, also after one fails; each failure is named on `err`. A run that did
/// not complete (report.completed false) has no answer: its snippets would replace an
/// earlier run's with comments, so only the report is written and each snippet left as it
/// was (said on `err`). Returns false when any write failed.
bool write_tune_outputs(const TuneOptions& tune, const results::Report& report, std::ostream& err);

}  // namespace disktune::tuner
