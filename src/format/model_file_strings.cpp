// The records of format version 4 that are not tensors (model_file.h): a
// record of strings (count, count + 1 offsets, the UTF-8 text) and a record
// of uint16 values; written, checked once when the layout is read, and then
// read where they lie without further checks.
#include "format/model_file_internal.h"

#include "common/error.h"
#include "text/utf8.h"

#include <limits>
#include <stdexcept>

namespace s2s {
namespace model_file_detail {

void check_string_record(const uint8_t* bytes, const TableEntry& entry) {
    const uint8_t* record = bytes + entry.offset;
    const std::string labelled = entry.label();
    const uint32_t count = load_u32(record);
    if (count != entry.rows) {
        throw ModelFileError("model file " + labelled + " counts " + std::to_string(count) +
                             " strings, but its table entry says " + std::to_string(entry.rows) + "; " + kDamaged);
    }
    const uint8_t* offsets = record + 4;
    const auto* text = reinterpret_cast<const char*>(offsets + 4 * (uint64_t{count} + 1));
    if (load_u32(offsets) != 0) {
        throw ModelFileError("model file " + labelled + " has its first string at offset " +
                             std::to_string(load_u32(offsets)) + " of its text instead of 0; " + kDamaged);
    }
    // The whole text is valid UTF-8 and no string starts inside a
    // character (on a continuation byte): then each string is valid UTF-8
    // on its own, checked in one pass over the text.
    uint32_t previous = 0;
    for (uint32_t i = 1; i <= count; ++i) {
        const uint32_t offset = load_u32(offsets + 4 * uint64_t{i});
        if (offset < previous || offset > entry.cols) {
            throw ModelFileError("model file " + labelled + " has string " + std::to_string(i - 1) + " ending at offset " +
                                 std::to_string(offset) + " of its text, " +
                                 (offset < previous ? "before it starts (" + std::to_string(previous) + ")"
                                                    : "past the end of the text (" + std::to_string(entry.cols) + " bytes)") +
                                 "; " + kDamaged);
        }
        if (offset < entry.cols && (static_cast<unsigned char>(text[offset]) & 0xC0) == 0x80) {
            throw ModelFileError("model file " + labelled + " has string " + std::to_string(i) +
                                 " starting inside a UTF-8 character; " + kDamaged);
        }
        previous = offset;
    }
    if (previous != entry.cols) {
        throw ModelFileError("model file " + labelled + " has strings that end at offset " + std::to_string(previous) +
                             " of its text of " + std::to_string(entry.cols) + " bytes; " + kDamaged);
    }
    if (!is_valid_utf8(std::string_view(text, entry.cols))) {
        throw ModelFileError("model file " + labelled + " holds text that is not valid UTF-8; " + kDamaged);
    }
}

uint64_t check_record_to_write(const RecordToWrite& record, std::unordered_set<std::string>& seen) {
    if (!is_valid_tensor_name(record.name)) {
        throw std::invalid_argument("record name " + in_quotes(record.name) +
                                    " must be 1 to 256 bytes of UTF-8 without control characters");
    }
    if (!seen.insert(record.name).second) throw std::invalid_argument("two records named " + in_quotes(record.name));
    constexpr uint64_t kMaxU32 = std::numeric_limits<uint32_t>::max();
    if (record.dtype == RecordDtype::kStrings) {
        uint64_t text = 0;
        for (const std::string_view string : record.strings) {
            if (!is_valid_utf8(string)) {
                throw std::invalid_argument("record " + in_quotes(record.name) + " holds a string that is not valid UTF-8");
            }
            text += string.size();
        }
        if (record.strings.size() >= kMaxU32 || text > kMaxU32) {
            throw std::invalid_argument("record " + in_quotes(record.name) + " holds too many strings or bytes to encode");
        }
        uint64_t bytes = 0;
        record_byte_size(RecordDtype::kStrings, record.strings.size(), text, bytes);  // never too large
        return bytes;
    }
    if (record.dtype != RecordDtype::kUint16) {
        throw std::invalid_argument("record " + in_quotes(record.name) + " has an unknown dtype");
    }
    if (uint64_t{record.rows} * record.cols > 0 && record.values == nullptr) {
        throw std::invalid_argument("record " + in_quotes(record.name) + " has no values");
    }
    uint64_t bytes = 0;
    if (!record_byte_size(RecordDtype::kUint16, record.rows, record.cols, bytes) ||
        uint64_t{record.rows} * record.cols > std::numeric_limits<size_t>::max()) {
        throw std::invalid_argument("record " + in_quotes(record.name) + " is too large to encode");
    }
    return bytes;
}

void encode_record(const RecordToWrite& record, uint8_t* out) {
    Writer writer(out);
    if (record.dtype == RecordDtype::kUint16) {
        const size_t count = static_cast<size_t>(record.rows) * record.cols;
        for (size_t i = 0; i < count; ++i) writer.u16(record.values[i]);
        return;
    }
    const auto count = static_cast<uint32_t>(record.strings.size());
    writer.u32(count);
    uint32_t offset = 0;
    writer.u32(offset);
    for (const std::string_view string : record.strings) {
        offset += static_cast<uint32_t>(string.size());  // the total fits (check_record_to_write)
        writer.u32(offset);
    }
    for (const std::string_view string : record.strings) writer.bytes(string.data(), string.size());
}

}  // namespace model_file_detail

using namespace model_file_detail;

StringTableView::StringTableView(const uint8_t* bytes, const RecordLayout& record)
    : offsets_(bytes + record.offset + 4),
      text_(reinterpret_cast<const char*>(bytes + record.offset + 4 + 4 * (uint64_t{record.rows} + 1))),
      count_(record.rows) {
    if (record.dtype != RecordDtype::kStrings) {
        throw std::invalid_argument("record " + in_quotes(record.name) + " holds uint16 values, not strings");
    }
}

std::string_view StringTableView::operator[](size_t i) const {
    const uint32_t begin = load_u32(offsets_ + 4 * i);
    return {text_ + begin, load_u32(offsets_ + 4 * (i + 1)) - begin};
}

uint16_t uint16_record_value(const uint8_t* bytes, const RecordLayout& record, size_t i) {
    return load_u16(bytes + record.offset + 2 * i);
}

}  // namespace s2s
