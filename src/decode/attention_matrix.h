// A hypothesis's attention: one row per output token, one column per source
// token (each row sums to 1), stored row after row in one float array, so
// that the row the decoder computed is copied once, into here, and a client
// reads the whole matrix from one place (the WebAssembly module hands
// JavaScript a view of data(); the CLI writes it as JSON rows).
#pragma once

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace s2s {

class AttentionMatrix {
public:
    // A read-only view of one row.
    class Row {
    public:
        Row(const float* data, size_t size) : data_(data), size_(size) {}
        float operator[](size_t i) const { return data_[i]; }
        size_t size() const { return size_; }
        const float* begin() const { return data_; }
        const float* end() const { return data_ + size_; }
        const float* data() const { return data_; }

    private:
        const float* data_;
        size_t size_;
    };

    class RowIterator {
    public:
        RowIterator(const AttentionMatrix* m, size_t row) : m_(m), row_(row) {}
        Row operator*() const { return (*m_)[row_]; }
        RowIterator& operator++() {
            ++row_;
            return *this;
        }
        bool operator!=(const RowIterator& other) const { return row_ != other.row_; }

    private:
        const AttentionMatrix* m_;
        size_t row_;
    };

    AttentionMatrix() = default;
    // From rows of equal width (tests, and the trainer's small models).
    AttentionMatrix(const std::vector<std::vector<float>>& rows) {  // NOLINT: implicit, as rows of numbers read
        for (const auto& row : rows) append_row(row.data(), row.size());
    }

    // Appends a row of `cols` weights; every row has the first row's width.
    void append_row(const float* weights, size_t cols) {
        if (rows_ == 0) cols_ = cols;
        values_.insert(values_.end(), weights, weights + cols);
        ++rows_;
    }

    size_t size() const { return rows_; }  // rows (output tokens)
    size_t cols() const { return cols_; }  // source tokens
    bool empty() const { return rows_ == 0; }
    Row operator[](size_t row) const { return Row(values_.data() + row * cols_, cols_); }
    RowIterator begin() const { return RowIterator(this, 0); }
    RowIterator end() const { return RowIterator(this, rows_); }
    // Row after row: size() * cols() floats.
    const std::vector<float>& values() const { return values_; }

    bool operator==(const AttentionMatrix& other) const {
        return rows_ == other.rows_ && cols_ == other.cols_ && values_ == other.values_;
    }
    bool operator!=(const AttentionMatrix& other) const { return !(*this == other); }

    // Rows of numbers, as the CLI's --json writes them.
    std::vector<std::vector<float>> to_rows() const {
        std::vector<std::vector<float>> rows;
        rows.reserve(rows_);
        for (Row row : *this) rows.emplace_back(row.begin(), row.end());
        return rows;
    }

private:
    std::vector<float> values_;
    size_t rows_ = 0;
    size_t cols_ = 0;
};

inline void to_json(nlohmann::json& j, const AttentionMatrix& m) { j = m.to_rows(); }

// A row against a vector of weights (the trace's, in tests), element by element.
inline bool operator==(const std::vector<float>& weights, AttentionMatrix::Row row) {
    return weights.size() == row.size() && std::equal(row.begin(), row.end(), weights.begin());
}
inline bool operator==(AttentionMatrix::Row row, const std::vector<float>& weights) { return weights == row; }
inline bool operator==(AttentionMatrix::Row a, AttentionMatrix::Row b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}
inline bool operator!=(AttentionMatrix::Row a, AttentionMatrix::Row b) { return !(a == b); }

}  // namespace s2s
