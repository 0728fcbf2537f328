#include "engine/datagen/url_generator.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <string_view>

namespace granary::datagen
{
namespace
{

TEST(UrlGenerator, SameSeedSameUrls)
{
    UrlGenerator first(17, {{"google", 0.1}});
    UrlGenerator second(17, {{"google", 0.1}});
    UrlGenerator other(18, {{"google", 0.1}});
    size_t differing = 0;
    for (int i = 0; i < 1000; ++i)
    {
        const std::string url = first.nextUrl();
        ASSERT_EQ(url, second.nextUrl());
        differing += url != other.nextUrl();
    }
    EXPECT_GT(differing, 900u);
}

TEST(UrlGenerator, PlantedNeedlesAppearInTheirFractionOfRowsOnly)
{
    UrlGenerator generator(3, {{"google", 0.01}, {"yandex", 0.3}, {"vk", 0.3}});
    const StringColumn column = generateUrlColumn(generator, 8 << 20);
    const size_t rows = column.rows();
    std::map<std::string_view, size_t> rows_with;
    for (size_t row = 0; row < rows; ++row)
    {
        const std::string_view url = column.row(row);
        ASSERT_TRUE(url.starts_with("http://") || url.starts_with("https://")) << url;
        for (std::string_view needle : {"google", "yandex", "vk"})
        {
            rows_with[needle] += url.find(needle) != std::string_view::npos;
        }
    }
    EXPECT_NEAR(static_cast<double>(rows_with["google"]) / rows, 0.01, 0.002);
    EXPECT_NEAR(static_cast<double>(rows_with["yandex"]) / rows, 0.3, 0.01);
    EXPECT_NEAR(static_cast<double>(rows_with["vk"]) / rows, 0.3, 0.01);
}

TEST(UrlGenerator, RealisticSizesAndSkewedHosts)
{
    UrlGenerator generator(5);
    const StringColumn column = generateUrlColumn(generator, 4 << 20);
    const double average_size = static_cast<double>(column.bytes()) / column.rows();
    EXPECT_GE(average_size, 60);
    EXPECT_LE(average_size, 100);
    std::map<std::string_view, size_t> host_rows;
    for (size_t row = 0; row < column.rows(); ++row)
    {
        std::string_view url = column.row(row);
        url.remove_prefix(url.find("//") + 2);
        ++host_rows[url.substr(0, url.find('/'))];
    }
    size_t most_popular = 0;
    for (const auto& [host, count] : host_rows)
    {
        most_popular = std::max(most_popular, count);
    }
    // Zipf popularity: the top host gets several percent of visits, yet thousands of hosts occur.
    EXPECT_GT(static_cast<double>(most_popular) / column.rows(), 0.03);
    EXPECT_GT(host_rows.size(), 5000u);
}

TEST(UrlGenerator, ColumnViewMatchesRows)
{
    UrlGenerator generator(9);
    const StringColumn column = generateUrlColumn(generator, 10000);
    EXPECT_GE(column.bytes(), 10000u);
    const simd::StringColumnView view = column.view();
    ASSERT_EQ(view.rows, column.rows());
    EXPECT_EQ(view.offsets[0], 0u);
    EXPECT_EQ(view.offsets[view.rows], column.bytes());
}

}  // namespace
}  // namespace granary::datagen
