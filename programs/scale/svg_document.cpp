#include "programs/scale/svg_document.h"

#include <fmt/format.h>

namespace granary::scale
{

namespace
{

std::string strokeAttributes(const StrokeStyle& stroke)
{
    std::string out = fmt::format(R"( stroke="{}" stroke-width="{:.2f}")", escapeXml(stroke.colour),
                                  stroke.width);
    if (!stroke.dash.empty())
    {
        out += fmt::format(R"( stroke-dasharray="{}")", escapeXml(stroke.dash));
    }
    return out;
}

std::string_view anchorName(TextAnchor anchor)
{
    switch (anchor)
    {
        case TextAnchor::kStart:
            return "start";
        case TextAnchor::kMiddle:
            return "middle";
        case TextAnchor::kEnd:
            return "end";
    }
    return "start";
}

}  // namespace

std::string escapeXml(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (char c : text)
    {
        switch (c)
        {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&apos;";
                break;
            default:
                // Control characters are not allowed in XML 1.0 text.
                if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t')
                {
                    out += ' ';
                }
                else
                {
                    out += c;
                }
        }
    }
    return out;
}

SvgDocument::SvgDocument(double width, double height) : width_(width), height_(height) {}

void SvgDocument::rect(double x, double y, double width, double height, std::string_view fill,
                       const StrokeStyle* stroke)
{
    body_ += fmt::format(R"(<rect x="{:.2f}" y="{:.2f}" width="{:.2f}" height="{:.2f}" fill="{}")",
                         x, y, width, height, escapeXml(fill));
    if (stroke != nullptr)
    {
        body_ += strokeAttributes(*stroke);
    }
    body_ += "/>\n";
}

void SvgDocument::line(SvgPoint from, SvgPoint to, const StrokeStyle& stroke)
{
    body_ += fmt::format(R"(<line x1="{:.2f}" y1="{:.2f}" x2="{:.2f}" y2="{:.2f}"{}/>)", from.x,
                         from.y, to.x, to.y, strokeAttributes(stroke));
    body_ += '\n';
}

void SvgDocument::polyline(const std::vector<SvgPoint>& points, const StrokeStyle& stroke)
{
    body_ += R"(<polyline fill="none" stroke-linejoin="round" points=")";
    for (size_t i = 0; i < points.size(); ++i)
    {
        body_ += fmt::format("{}{:.2f},{:.2f}", i == 0 ? "" : " ", points[i].x, points[i].y);
    }
    body_ += '"' + strokeAttributes(stroke) + "/>\n";
}

void SvgDocument::circle(SvgPoint centre, double radius, std::string_view fill,
                         std::string_view stroke)
{
    body_ += fmt::format(R"(<circle cx="{:.2f}" cy="{:.2f}" r="{:.2f}" fill="{}" stroke="{}"/>)",
                         centre.x, centre.y, radius, escapeXml(fill), escapeXml(stroke));
    body_ += '\n';
}

void SvgDocument::text(SvgPoint at, std::string_view content, const TextStyle& style)
{
    body_ +=
        fmt::format(R"(<text x="{:.2f}" y="{:.2f}" font-size="{:.1f}" text-anchor="{}" fill="{}")",
                    at.x, at.y, style.size, anchorName(style.anchor), escapeXml(style.fill));
    if (style.bold)
    {
        body_ += R"( font-weight="bold")";
    }
    if (style.rotate_degrees != 0)
    {
        body_ += fmt::format(R"svg( transform="rotate({:.1f} {:.2f} {:.2f})")svg",
                             style.rotate_degrees, at.x, at.y);
    }
    body_ += '>' + escapeXml(content) + "</text>\n";
}

void SvgDocument::comment(std::string_view content)
{
    std::string safe(content);
    // "--" may not appear inside an XML comment.
    for (size_t at = safe.find("--"); at != std::string::npos; at = safe.find("--", at))
    {
        safe[at + 1] = '=';
    }
    body_ += "<!-- " + safe + " -->\n";
}

std::string SvgDocument::finish() const
{
    return fmt::format(
               "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
               "viewBox=\"0 0 {0:.0f} {1:.0f}\" font-family=\"DejaVu Sans, Helvetica, Arial, "
               "sans-serif\">\n",
               width_, height_) +
           body_ + "</svg>\n";
}

}  // namespace granary::scale
