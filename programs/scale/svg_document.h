#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace granary::scale
{

struct SvgPoint
{
    double x = 0;
    double y = 0;
};

enum class TextAnchor
{
    kStart,
    kMiddle,
    kEnd,
};

struct TextStyle
{
    double size = 12;
    TextAnchor anchor = TextAnchor::kStart;
    bool bold = false;
    std::string fill = "#222";
    double rotate_degrees = 0;  ///< Around the text's anchor point.
};

struct StrokeStyle
{
    std::string colour = "#222";
    double width = 1;
    std::string dash;  ///< SVG stroke-dasharray, e.g. "6 4"; empty: solid.
};

/// Appends SVG elements to a document of a fixed size; text is XML-escaped, numbers are written
/// with two decimals, so the output is well-formed whatever the labels contain.
class SvgDocument
{
public:
    SvgDocument(double width, double height);

    void rect(double x, double y, double width, double height, std::string_view fill,
              const StrokeStyle* stroke = nullptr);
    void line(SvgPoint from, SvgPoint to, const StrokeStyle& stroke);
    void polyline(const std::vector<SvgPoint>& points, const StrokeStyle& stroke);
    void circle(SvgPoint centre, double radius, std::string_view fill, std::string_view stroke);
    void text(SvgPoint at, std::string_view content, const TextStyle& style);
    /// An XML comment, for people reading the SVG source.
    void comment(std::string_view content);

    /// The complete document.
    std::string finish() const;

private:
    double width_;
    double height_;
    std::string body_;
};

std::string escapeXml(std::string_view text);

}  // namespace granary::scale
