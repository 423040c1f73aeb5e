// The names a model's file uses inside the container (model_file.h): the
// header's "format" and the records beside the tensors (format version 4 on).
// Shared by the writer (model_header.cpp) and the reader (model_load.cpp).
#pragma once

namespace s2s::model_records {

inline constexpr const char* kFormatName = "seq2seq-attention";
inline constexpr const char* kSourceVocabulary = "source_vocabulary";
inline constexpr const char* kTargetVocabulary = "target_vocabulary";
inline constexpr const char* kSourceMerges = "source_tokenizer.merges";
inline constexpr const char* kTargetMerges = "target_tokenizer.merges";
inline constexpr const char* kShortlistTriggers = "target_shortlist.triggers";

}  // namespace s2s::model_records
