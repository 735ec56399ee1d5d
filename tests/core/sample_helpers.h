// What the core data tests share: the moments of a sample, bit-identity of two float vectors,
// writing a file into a temporary directory, and .npy files written byte by byte. Header-only.
#pragma once

#include <QString>
#include <QTemporaryDir>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

namespace qs::testing {

struct Moments {
    double mean = 0, std = 0, min = 0, max = 0;
};

inline Moments moments(const std::vector<float>& v) {
    Moments m{0, 0, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
    double s = 0, s2 = 0;
    for (float x : v) {
        s += x;
        m.min = std::min<double>(m.min, x);
        m.max = std::max<double>(m.max, x);
    }
    m.mean = s / static_cast<double>(v.size());
    for (float x : v) s2 += (x - m.mean) * (x - m.mean);
    m.std = std::sqrt(s2 / static_cast<double>(v.size()));
    return m;
}

inline bool sameBits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// Writes the bytes as they are (binary) to dir/name; returns the path.
inline std::string writeFile(const QTemporaryDir& dir, const QString& name, const std::string& bytes) {
    const std::string path = dir.filePath(name).toStdString();
    std::ofstream f(path, std::ios::binary);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return path;
}

// ---- .npy fixtures, written byte by byte ----

// A .npy file: magic, version, little-endian header length, the dict padded with spaces to
// a multiple of 64 bytes and ended by '\n', then the raw data.
inline std::string npy(const std::string& dict, const std::string& data, int major = 1) {
    const size_t lenBytes = major == 1 ? 2 : 4;
    std::string header = dict;
    while ((8 + lenBytes + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::string out = "\x93NUMPY";
    out += static_cast<char>(major);
    out += '\0';
    for (size_t i = 0; i < lenBytes; ++i) out += static_cast<char>((header.size() >> (8 * i)) & 0xFF);
    return out + header + data;
}

template <typename T>
inline std::string rawBytes(const std::vector<T>& v, bool bigEndian = false) {
    std::string out(v.size() * sizeof(T), '\0');
    std::memcpy(out.data(), v.data(), out.size());
    if (bigEndian)
        for (size_t i = 0; i < out.size(); i += sizeof(T)) std::reverse(out.begin() + i, out.begin() + i + sizeof(T));
    return out;
}

inline std::string dict(const std::string& descr, bool fortran, const std::string& shape) {
    return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape +
           ", }";
}

}  // namespace qs::testing
