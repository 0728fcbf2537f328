#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/aggregation/functions/hyper_log_log.h"
#include "engine/aggregation/state_bytes.h"
#include "hashtables/hash_map.h"

namespace granary
{

/// The state of uniq / uniqCombined: the distinct 64-bit hashes of the values, kept exactly
/// while few (in the state itself, then in a heap hash set) and as a HyperLogLog of the
/// state's precision once they would take as much memory as its registers. A group with few
/// values costs sizeof(UniqSketchState) of arena; results and merges do not depend on the
/// order values and states come in (sets are unions, registers maxima).
class UniqSketchState
{
public:
    /// Hashes kept in the state itself before a hash set is allocated.
    static constexpr size_t kInlineHashes = 6;

    explicit UniqSketchState(uint8_t precision) : precision_(precision) {}

    /// Distinct hashes kept exactly at this precision: as many as fill a hash set (half
    /// empty, 16 bytes a hash) as large as the registers.
    static constexpr size_t exactLimit(uint8_t precision)
    {
        return HyperLogLog::packedSize(precision) / (2 * sizeof(uint64_t));
    }

    bool usesRegisters() const { return sketch_ != nullptr; }

    void insert(uint64_t hash)
    {
        if (sketch_)
        {
            sketch_->insertHash(hash);
            return;
        }
        if (set_)
        {
            bool inserted;
            set_->emplace(hash, inserted);
            if (set_->size() > exactLimit(precision_))
            {
                switchToRegisters();
            }
            return;
        }
        const auto end = inline_hashes_.begin() + inline_count_;
        if (std::find(inline_hashes_.begin(), end, hash) != end)
        {
            return;
        }
        if (inline_count_ < kInlineHashes)
        {
            inline_hashes_[inline_count_++] = hash;
            return;
        }
        auto set = std::make_unique<HashSetOfHashes>();
        for (uint64_t kept : inline_hashes_)
        {
            bool inserted;
            set->emplace(kept, inserted);
        }
        set_ = std::move(set);
        inline_count_ = 0;
        insert(hash);
    }

    /// Folds `source`, a state of the same precision, in.
    void merge(const UniqSketchState& source)
    {
        if (source.sketch_)
        {
            mergeRegisters(source.sketch_->packed());
            return;
        }
        source.forEachExactHash([&](uint64_t hash) { insert(hash); });
    }

    uint64_t count() const
    {
        if (sketch_)
        {
            return static_cast<uint64_t>(std::llround(sketch_->estimate()));
        }
        return set_ ? set_->size() : inline_count_;
    }

    /// A kind byte, then the exact hashes (a 32-bit count and the hashes in increasing order)
    /// or the precision byte and the packed registers.
    void serialize(std::string& out) const
    {
        if (sketch_)
        {
            appendStateValue(out, kRegistersKind);
            appendStateValue(out, precision_);
            out.append(sketch_->packed());
            return;
        }
        // Sorted: equal sets give equal bytes, whatever order built them.
        std::vector<uint64_t> hashes;
        hashes.reserve(count());
        forEachExactHash([&](uint64_t hash) { hashes.push_back(hash); });
        std::sort(hashes.begin(), hashes.end());
        appendStateValue(out, kExactKind);
        appendStateValue(out, static_cast<uint32_t>(hashes.size()));
        for (uint64_t hash : hashes)
        {
            appendStateValue(out, hash);
        }
    }

    /// Exception(kIncorrectData) naming `function` unless `bytes` are a whole state of
    /// `precision`.
    static void checkSerialized(std::string_view bytes, std::string_view function,
                                uint8_t precision)
    {
        parseSerialized(
            bytes, function, precision, [](uint64_t) {}, [](std::string_view) {});
    }
    /// Folds a serialized state in (checked as above).
    void mergeSerialized(std::string_view bytes, std::string_view function)
    {
        parseSerialized(
            bytes, function, precision_, [&](uint64_t hash) { insert(hash); },
            [&](std::string_view packed) { mergeRegisters(packed); });
    }

private:
    /// The set's hashes are already mixed: its slots take their low bits as they are.
    struct MixedHash
    {
        uint64_t operator()(uint64_t hash) const { return hash; }
    };
    /// 16 cells (128 bytes) to start with: a group just past the inline hashes stays small.
    using HashSetOfHashes = HashSet<uint64_t, MixedHash, HashTableGrower<4>>;

    /// Serialized kinds.
    static constexpr uint8_t kExactKind = 0;
    static constexpr uint8_t kRegistersKind = 1;

    /// Calls on_hash(hash) for each exact hash or on_registers(packed) once.
    template <typename OnHash, typename OnRegisters>
    static void parseSerialized(std::string_view bytes, std::string_view function,
                                uint8_t precision, OnHash&& on_hash, OnRegisters&& on_registers)
    {
        StateReader reader(bytes, std::string(function));
        const auto kind = reader.read<uint8_t>();
        if (kind == kExactKind)
        {
            const auto count = reader.read<uint32_t>();
            if (count > exactLimit(precision) || count * sizeof(uint64_t) != reader.left())
            {
                reader.fail(std::to_string(count) + " exact hashes in " +
                            std::to_string(reader.left()) + " bytes");
            }
            for (uint32_t i = 0; i < count; ++i)
            {
                on_hash(reader.read<uint64_t>());
            }
            return;
        }
        if (kind != kRegistersKind)
        {
            reader.fail("unknown kind " + std::to_string(kind));
        }
        const auto written_precision = reader.read<uint8_t>();
        if (written_precision != precision)
        {
            reader.fail("precision " + std::to_string(written_precision) + ", expected " +
                        std::to_string(precision));
        }
        const std::string_view packed = bytes.substr(bytes.size() - reader.left());
        if (!HyperLogLog::isValidPacked(packed, precision))
        {
            reader.fail("registers are not " + std::to_string(HyperLogLog::packedSize(precision)) +
                        " bytes of ranks up to " + std::to_string(HyperLogLog::maxRank(precision)));
        }
        on_registers(packed);
    }

    template <typename F>
    void forEachExactHash(F&& f) const
    {
        if (set_)
        {
            set_->forEachCell([&](const auto& cell) { f(cell.key()); });
            return;
        }
        std::for_each(inline_hashes_.begin(), inline_hashes_.begin() + inline_count_, f);
    }

    void switchToRegisters()
    {
        auto sketch = std::make_unique<HyperLogLog>(precision_);
        forEachExactHash([&](uint64_t hash) { sketch->insertHash(hash); });
        sketch_ = std::move(sketch);
        set_.reset();
        inline_count_ = 0;
    }
    void mergeRegisters(std::string_view packed)
    {
        if (!sketch_)
        {
            switchToRegisters();
        }
        sketch_->mergePacked(packed);
    }

    uint8_t precision_;
    uint8_t inline_count_ = 0;
    std::array<uint64_t, kInlineHashes> inline_hashes_;
    std::unique_ptr<HashSetOfHashes> set_;
    std::unique_ptr<HyperLogLog> sketch_;
};

}  // namespace granary
