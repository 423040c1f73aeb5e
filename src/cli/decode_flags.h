// The translate options that commands take as flags (--beam,
// --length-penalty, ...): which flag is which option of the table in
// src/decode/option_ranges.h, read as numbers and checked by that table, so
// the CLI writes no range or default of its own.
#pragma once

#include "cli/args.h"
#include "decode/search.h"

#include <string>

namespace s2s::cli {

struct DecodeFlag {
    const char* flag;    // without "--": "beam"
    const char* option;  // the option table's name: "beamSize"
};

inline constexpr DecodeFlag kDecodeFlags[] = {
    {"beam", "beamSize"},
    {"max-length", "maxLength"},
    {"alternatives", "alternatives"},
    {"length-penalty", "lengthPenalty"},
    {"coverage-penalty", "coveragePenalty"},
    {"temperature", "temperature"},
};

// `base` (DecodeOptions' defaults, or a model's: decode_defaults) with every
// flag of kDecodeFlags that `args` holds, and --shortlist on|off (the
// model's lexical shortlist: DecodeOptions::shortlist) when it is one of
// the command's flags;
// throws UsageError for a value that is not a number (or not a whole number
// where the option needs one) or is outside the option's range.
DecodeOptions read_decode_flags(const Args& args, const DecodeOptions& base = DecodeOptions{});

// "1 to 8", "(default 0.2)", "0.2": a help line's range and default, from the table.
std::string decode_flag_range(const char* option);
std::string decode_flag_default(const char* option);
std::string decode_flag_default_value(const char* option);

}  // namespace s2s::cli
