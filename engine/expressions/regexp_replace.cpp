#include "engine/expressions/regexp_replace.h"

#include <re2/re2.h>

#include <string>
#include <vector>

#include "engine/common/exception.h"

namespace granary
{
namespace
{

/// A piece of the replacement: literal text, or a capture group (0 = the whole match).
struct ReplacementPiece
{
    std::string text;
    int group = -1;
};

std::vector<ReplacementPiece> parseReplacement(std::string_view replacement, int groups,
                                               std::string_view pattern)
{
    std::vector<ReplacementPiece> pieces(1);
    for (size_t i = 0; i < replacement.size(); ++i)
    {
        const char c = replacement[i];
        const char next = i + 1 < replacement.size() ? replacement[i + 1] : '\0';
        if (c == '\\' && next >= '0' && next <= '9')
        {
            const int group = next - '0';
            if (group > groups)
            {
                throw Exception(ErrorCode::kBadArguments,
                                "Replacement '" + std::string(replacement) + "' refers to \\" +
                                    std::to_string(group) + " but pattern '" +
                                    std::string(pattern) + "' has " + std::to_string(groups) +
                                    " capture groups");
            }
            pieces.push_back({"", group});
            pieces.emplace_back();
            ++i;
        }
        else if (c == '\\' && next == '\\')
        {
            pieces.back().text.push_back('\\');
            ++i;
        }
        else
        {
            pieces.back().text.push_back(c);
        }
    }
    return pieces;
}

std::unique_ptr<const re2::RE2> compilePattern(std::string_view pattern)
{
    re2::RE2::Options options;
    options.set_log_errors(false);
    // Bytes, not UTF-8: `.` must match any byte, as the data holds invalid UTF-8.
    options.set_encoding(re2::RE2::Options::EncodingLatin1);
    auto compiled =
        std::make_unique<const re2::RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
    if (!compiled->ok())
    {
        throw Exception(
            ErrorCode::kBadArguments,
            "Invalid regular expression '" + std::string(pattern) + "': " + compiled->error());
    }
    return compiled;
}

class RegexpReplaceNode final : public ExpressionNode
{
public:
    RegexpReplaceNode(NodePtr value, std::string_view pattern, std::string_view replacement,
                      bool replace_all)
        : ExpressionNode(TypeId::String, {std::move(value)}),
          regexp_(compilePattern(pattern)),
          pieces_(parseReplacement(replacement, regexp_->NumberOfCapturingGroups(), pattern)),
          submatches_(1 + maxGroup()),
          replace_all_(replace_all)
    {
    }

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        Column value_holder;
        const ColumnView values = children()[0]->evaluate(input, begin, count, value_holder);
        holder = Column(TypeId::String);
        holder.reserve(count, values.offsets[count] - values.offsets[0]);
        std::vector<re2::StringPiece> groups(submatches_);
        std::string replaced;
        for (size_t row = 0; row < count; ++row)
        {
            const std::string_view text = values.stringAt(row);
            replaced.clear();
            if (replace(text, groups, replaced))
            {
                holder.appendString(replaced);
            }
            else
            {
                holder.appendString(text);
            }
        }
        return holder.view();
    }

private:
    int maxGroup() const
    {
        int group = 0;
        for (const ReplacementPiece& piece : pieces_)
        {
            group = std::max(group, piece.group);
        }
        return group;
    }

    /// Writes the replaced text to `out`; false (and `out` unused) when nothing matched.
    bool replace(std::string_view text, std::vector<re2::StringPiece>& groups,
                 std::string& out) const
    {
        const re2::StringPiece whole(text.data(), text.size());
        size_t position = 0;
        bool matched = false;
        while (position <= text.size() &&
               regexp_->Match(whole, position, text.size(), re2::RE2::UNANCHORED, groups.data(),
                              static_cast<int>(groups.size())))
        {
            matched = true;
            const size_t start = static_cast<size_t>(groups[0].data() - text.data());
            out.append(text.substr(position, start - position));
            appendReplacement(groups, out);
            position = start + groups[0].size();
            if (!replace_all_)
            {
                break;
            }
            if (groups[0].empty())
            {
                // An empty match: keep one byte and search again after it.
                if (position < text.size())
                {
                    out.push_back(text[position]);
                }
                ++position;
            }
        }
        if (matched && position < text.size())
        {
            out.append(text.substr(position));
        }
        return matched;
    }

    void appendReplacement(const std::vector<re2::StringPiece>& groups, std::string& out) const
    {
        for (const ReplacementPiece& piece : pieces_)
        {
            if (piece.group >= 0)
            {
                const re2::StringPiece& group = groups[piece.group];
                if (!group.empty())
                {
                    out.append(group.data(), group.size());
                }
            }
            else
            {
                out.append(piece.text);
            }
        }
    }

    std::unique_ptr<const re2::RE2> regexp_;
    std::vector<ReplacementPiece> pieces_;
    size_t submatches_;
    bool replace_all_;
};

}  // namespace

NodePtr makeRegexpReplace(NodePtr value, std::string_view pattern, std::string_view replacement,
                          bool replace_all)
{
    return std::make_shared<RegexpReplaceNode>(std::move(value), pattern, replacement, replace_all);
}

}  // namespace granary
