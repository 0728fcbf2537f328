#include "xml_check.h"

#include <cctype>
#include <vector>

namespace granary::scale::testing
{

namespace
{

bool decodeEntities(std::string_view raw, std::string& out)
{
    for (size_t i = 0; i < raw.size(); ++i)
    {
        if (raw[i] == '<')
        {
            return false;
        }
        if (raw[i] != '&')
        {
            out += raw[i];
            continue;
        }
        const size_t end = raw.find(';', i);
        if (end == std::string_view::npos)
        {
            return false;
        }
        const std::string_view entity = raw.substr(i + 1, end - i - 1);
        static const std::map<std::string_view, char> kEntities = {
            {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
        const auto known = kEntities.find(entity);
        if (known == kEntities.end())
        {
            return false;
        }
        out += known->second;
        i = end;
    }
    return true;
}

/// Parses `name attr="v" attr='v'` up to the end of a tag; false if malformed.
bool parseTagBody(std::string_view body, std::string& name)
{
    size_t i = 0;
    while (i < body.size() && (std::isalnum(static_cast<unsigned char>(body[i])) ||
                               body[i] == '-' || body[i] == ':' || body[i] == '_'))
    {
        name += body[i++];
    }
    if (name.empty())
    {
        return false;
    }
    while (i < body.size())
    {
        if (std::isspace(static_cast<unsigned char>(body[i])))
        {
            ++i;
            continue;
        }
        const size_t equals = body.find('=', i);
        if (equals == std::string_view::npos || equals + 1 >= body.size())
        {
            return false;
        }
        const char quote = body[equals + 1];
        if (quote != '"' && quote != '\'')
        {
            return false;
        }
        const size_t close = body.find(quote, equals + 2);
        if (close == std::string_view::npos)
        {
            return false;
        }
        std::string value;
        if (!decodeEntities(body.substr(equals + 2, close - equals - 2), value))
        {
            return false;
        }
        i = close + 1;
    }
    return true;
}

}  // namespace

XmlSummary checkXml(std::string_view document)
{
    XmlSummary summary;
    std::vector<std::string> open;
    bool root_seen = false;
    size_t i = 0;
    const auto fail = [&](std::string problem)
    {
        summary.problem = std::move(problem) + " at offset " + std::to_string(i);
        return summary;
    };
    while (i < document.size())
    {
        const size_t lt = document.find('<', i);
        const std::string_view text =
            document.substr(i, lt == std::string_view::npos ? std::string_view::npos : lt - i);
        if (!decodeEntities(text, summary.text))
        {
            return fail("bad character data");
        }
        if (open.empty() && text.find_first_not_of(" \t\r\n") != std::string_view::npos)
        {
            return fail("text outside the root element");
        }
        if (lt == std::string_view::npos)
        {
            break;
        }
        i = lt;
        if (document.substr(i).starts_with("<?"))
        {
            const size_t end = document.find("?>", i);
            if (end == std::string_view::npos)
            {
                return fail("unterminated declaration");
            }
            i = end + 2;
            continue;
        }
        if (document.substr(i).starts_with("<!--"))
        {
            const size_t end = document.find("-->", i + 4);
            if (end == std::string_view::npos ||
                document.substr(i + 4, end - i - 4).find("--") != std::string_view::npos)
            {
                return fail("bad comment");
            }
            i = end + 3;
            continue;
        }
        const size_t gt = document.find('>', i);
        if (gt == std::string_view::npos)
        {
            return fail("unterminated tag");
        }
        std::string_view tag = document.substr(i + 1, gt - i - 1);
        i = gt + 1;
        if (tag.starts_with('/'))
        {
            if (open.empty() || open.back() != tag.substr(1))
            {
                return fail("closing tag </" + std::string(tag.substr(1)) + "> does not match");
            }
            open.pop_back();
            continue;
        }
        const bool self_closing = tag.ends_with('/');
        if (self_closing)
        {
            tag.remove_suffix(1);
        }
        std::string name;
        if (!parseTagBody(tag, name))
        {
            return fail("malformed tag <" + std::string(tag) + ">");
        }
        if (open.empty() && root_seen)
        {
            return fail("second root element");
        }
        root_seen = true;
        ++summary.elements[name];
        if (!self_closing)
        {
            open.push_back(name);
        }
    }
    if (!open.empty())
    {
        return fail("unclosed <" + open.back() + ">");
    }
    summary.well_formed = root_seen;
    if (!root_seen)
    {
        summary.problem = "no root element";
    }
    return summary;
}

}  // namespace granary::scale::testing
