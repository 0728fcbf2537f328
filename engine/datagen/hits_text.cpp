#include "engine/datagen/hits_text.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <iterator>
#include <string_view>

#include "engine/datagen/hits_column_models.h"

namespace granary::datagen
{
namespace
{

using namespace std::string_view_literals;

/// Words in TextBuffer::kShortCopy-byte slots, so that each is appended as one fixed-size
/// copy (TextBuffer::appendShort).
template <size_t Size>
struct PaddedWords
{
    std::array<std::array<char, TextBuffer::kShortCopy>, Size> slots{};
    std::array<uint8_t, Size> sizes{};

    static constexpr size_t size() { return Size; }
    std::string_view operator[](size_t index) const { return {slots[index].data(), sizes[index]}; }
};

template <size_t Size>
constexpr PaddedWords<Size> padded(const std::array<std::string_view, Size>& words)
{
    PaddedWords<Size> result;
    for (size_t index = 0; index < Size; ++index)
    {
        if (words[index].size() > TextBuffer::kShortCopy)
        {
            throw "a word longer than its slot";  // Fails the constant evaluation.
        }
        std::copy(words[index].begin(), words[index].end(), result.slots[index].begin());
        result.sizes[index] = static_cast<uint8_t>(words[index].size());
    }
    return result;
}

constexpr auto kCyrillicWords = padded(std::array{
    "купить"sv,
    "смотреть"sv,
    "онлайн"sv,
    "бесплатно"sv,
    "погода"sv,
    "новости"sv,
    "москва"sv,
    "фильм"sv,
    "сериал"sv,
    "игры"sv,
    "скачать"sv,
    "цена"sv,
    "отзывы"sv,
    "работа"sv,
    "квартира"sv,
    "аренда"sv,
    "продажа"sv,
    "авто"sv,
    "машина"sv,
    "запчасти"sv,
    "ремонт"sv,
    "одежда"sv,
    "обувь"sv,
    "детская"sv,
    "женская"sv,
    "мужская"sv,
    "магазин"sv,
    "каталог"sv,
    "доставка"sv,
    "рецепт"sv,
    "торт"sv,
    "салат"sv,
    "музыка"sv,
    "песни"sv,
    "книги"sv,
    "читать"sv,
    "школа"sv,
    "курсы"sv,
    "русский"sv,
    "язык"sv,
    "карта"sv,
    "метро"sv,
    "билеты"sv,
    "поезд"sv,
    "самолет"sv,
    "отель"sv,
    "туры"sv,
    "море"sv,
    "дача"sv,
    "сад"sv,
    "огород"sv,
    "телефон"sv,
    "планшет"sv,
    "ноутбук"sv,
    "телевизор"sv,
    "холодильник"sv,
    "стиральная"sv,
    "машинка"sv,
    "диван"sv,
    "кровать"sv,
    "шкаф"sv,
    "кухня"sv,
    "ванная"sv,
    "плитка"sv,
    "обои"sv,
    "краска"sv,
    "банк"sv,
    "кредит"sv,
    "ипотека"sv,
    "вклад"sv,
    "курс"sv,
    "доллара"sv,
    "евро"sv,
    "рубль"sv,
    "гороскоп"sv,
    "сонник"sv,
    "знакомства"sv,
    "чат"sv,
    "форум"sv,
    "блог"sv,
    "фото"sv,
    "видео"sv,
    "клип"sv,
    "мультфильм"sv,
    "детей"sv,
    "новый"sv,
    "старый"sv,
    "лучший"sv,
    "дешево"sv,
    "недорого"sv,
    "санкт-петербург"sv,
    "екатеринбург"sv,
    "новосибирск"sv,
    "казань"sv,
    "самара"sv,
    "омск"sv,
    "ростов"sv,
    "уфа"sv,
    "пермь"sv,
    "воронеж"sv,
    "волгоград"sv,
    "краснодар"sv,
    "серия"sv,
    "сезон"sv,
    "все"sv,
    "как"sv,
    "что"sv,
    "где"sv,
    "сколько"sv,
    "почему"sv,
    "своими"sv,
    "руками"sv,
    "инструкция"sv,
    "отзыв"sv,
});

constexpr auto kLatinWords = padded(std::array{
    "news"sv,    "catalog"sv, "products"sv, "item"sv,    "page"sv,     "view"sv,    "search"sv,
    "list"sv,    "forum"sv,   "topic"sv,    "thread"sv,  "user"sv,     "profile"sv, "photo"sv,
    "video"sv,   "music"sv,   "games"sv,    "auto"sv,    "realty"sv,   "job"sv,     "blog"sv,
    "post"sv,    "article"sv, "category"sv, "section"sv, "shop"sv,     "cart"sv,    "order"sv,
    "detail"sv,  "index"sv,   "main"sv,     "region"sv,  "city"sv,     "moscow"sv,  "spb"sv,
    "weather"sv, "films"sv,   "serial"sv,   "online"sv,  "download"sv, "free"sv,    "mobile"sv,
    "galaxy"sv,  "table"sv,   "sale"sv,     "price"sv,   "review"sv,   "help"sv,    "about"sv,
});

constexpr auto kTopLevelDomains =
    padded(std::array{".ru"sv, ".ru"sv, ".ru"sv, ".com"sv, ".net"sv, ".org"sv, ".su"sv, ".info"sv,
                      ".ua"sv, ".by"sv, ".kz"sv});

constexpr auto kQueryKeys =
    padded(std::array{"id"sv, "page"sv, "utm_source"sv, "utm_campaign"sv, "ref"sv, "from"sv,
                      "sort"sv, "p"sv, "q"sv, "city"sv, "type"sv});

/// Referer domains with their weights among non-empty referers; the rest go to invented ones.
struct WeightedDomain
{
    std::string_view domain;
    double weight;
};
constexpr std::array<WeightedDomain, 12> kRefererDomains = {{
    {"go.mail.ru", 0.14},
    {"google.ru", 0.029},
    {"yandex.ru", 0.027},
    {"vk.com", 0.02},
    {"bonprix.ru", 0.015},
    {"e96.ru", 0.0136},
    {"mysw.info", 0.0131},
    {"loveplanet.ru", 0.0061},
    {"gadgets.irr.ru", 0.0047},
    {"tambov.irr.ru", 0.0042},
    {"ok.ru", 0.004},
    {"avito.ru", 0.004},
}};
constexpr size_t kInventedDomains = 20000;
constexpr size_t kHosts = 50000;

template <size_t Size, typename Draws>
std::string_view pick(const PaddedWords<Size>& words, Draws& random)
{
    return words[random.below(Size)];
}

void appendDecimal(uint64_t value, TextBuffer& out)
{
    // Two digits per division: URLs and referers are full of 6- to 8-digit numbers.
    static constexpr char kPairs[] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    // The digits go straight into the text, backwards: built in a local buffer, they were read
    // back as 16-byte blocks right after their 2-byte stores, which stalled store forwarding.
    size_t digits = 1;
    for (uint64_t bound = 10; digits < 20 && value >= bound; bound *= 10)
    {
        ++digits;
    }
    char* next = out.appendUninitialized(digits) + digits;
    while (value >= 100)
    {
        const uint64_t pair = value % 100;
        value /= 100;
        next -= 2;
        std::memcpy(next, kPairs + 2 * pair, 2);
    }
    if (value >= 10)
    {
        std::memcpy(next - 2, kPairs + 2 * value, 2);
    }
    else
    {
        next[-1] = static_cast<char>('0' + value);
    }
}

/// An invented host name for a host rank: two Latin syllable groups and a top-level domain.
void appendHostName(uint64_t seed, uint64_t rank, TextBuffer& out)
{
    static constexpr std::string_view kSyllables = "kamolirutesanivodepazybu";
    Random random(mixSeed(seed, rank));
    const size_t letters = 4 + random.below(8);
    char name[16];
    for (size_t i = 0; i < letters; ++i)
    {
        name[i] = kSyllables[random.below(kSyllables.size())];
    }
    out += std::string_view(name, letters);
    if (random.chance(0.2))
    {
        out += '-';
        out.appendShort(pick(kLatinWords, random));
    }
    out.appendShort(pick(kTopLevelDomains, random));
}

/// Zipf-like rank in [0, size) from a uniform unit: rank = size^unit - 1 gives P(rank) ~ 1/rank.
uint64_t logUniformRank(double unit, size_t size)
{
    return std::min<uint64_t>(
        static_cast<uint64_t>(std::exp(unit * std::log(static_cast<double>(size)))) - 1, size - 1);
}

/// A path segment spelling the index, so that distinct indices give distinct strings.
void appendIndexSegment(uint64_t index, TextBuffer& out)
{
    out += "/id";
    appendDecimal(index, out);
}

void appendPath(SmallDraws& random, size_t segments, TextBuffer& out)
{
    for (size_t i = 0; i < segments; ++i)
    {
        out += '/';
        if (random.chance(0.3))
        {
            appendDecimal(random.below(1'000'000), out);
        }
        else
        {
            out.appendShort(pick(kLatinWords, random));
            if (random.chance(0.3))
            {
                out += '_';
                out.appendShort(pick(kLatinWords, random));
            }
        }
    }
    if (random.chance(0.3))
    {
        out += ".html";
    }
}

void appendQuery(SmallDraws& random, TextBuffer& out)
{
    const size_t pairs = 1 + random.below(5);
    for (size_t i = 0; i < pairs; ++i)
    {
        out += i == 0 ? '?' : '&';
        out.appendShort(pick(kQueryKeys, random));
        out += '=';
        if (random.chance(0.5))
        {
            appendDecimal(random.below(100'000'000), out);
        }
        else
        {
            out.appendShort(pick(kLatinWords, random));
        }
    }
}

void appendCyrillicWords(SmallDraws& random, size_t words, TextBuffer& out)
{
    for (size_t i = 0; i < words; ++i)
    {
        if (i > 0)
        {
            out += ' ';
        }
        out.appendShort(pick(kCyrillicWords, random));
    }
}

/// The names of ranks [0, count) of appendHostName.
StringColumn hostNames(uint64_t seed, size_t count)
{
    StringColumn names;
    for (size_t rank = 0; rank < count; ++rank)
    {
        appendHostName(seed, rank, names.chars());
        names.finishRow();
    }
    return names;
}

}  // namespace

HitsText::HitsText(uint64_t seed)
    : seed_(seed),
      hosts_(hostNames(seed, kHosts)),
      referer_hosts_(hostNames(seed ^ 0xD0, kInventedDomains))
{
}

void HitsText::appendUrl(uint64_t index, TextBuffer& out) const
{
    SmallDraws random(mixSeed(seed_ ^ 0x55AA, index));
    out += random.chance(0.15) ? "https://" : "http://";
    if (random.chance(0.4))
    {
        out += "www.";
    }
    out.appendShort(hosts_.row(logUniformRank(random.unit(), kHosts)));
    appendPath(random, 2 + random.below(4), out);
    appendIndexSegment(index, out);
    if (random.chance(0.85))
    {
        appendQuery(random, out);
    }
}

void HitsText::appendHotCounterUrl(uint64_t index, TextBuffer& out) const
{
    SmallDraws random(mixSeed(seed_ ^ 0x62, index));
    out += "http://irr.ru/";
    out.appendShort(pick(kLatinWords, random));
    appendPath(random, random.below(3), out);
    if (index > 0)
    {
        out += "?id=";
        appendDecimal(index, out);
    }
}

void HitsText::appendGoogleUrl(uint64_t index, TextBuffer& out) const
{
    SmallDraws random(mixSeed(seed_ ^ 0x600613, index));
    out += random.chance(0.5) ? "http://www.google.ru/search?q="
                              : "https://googleads.g.doubleclick.net/pagead?id=";
    appendDecimal(index % 5000, out);
    appendPath(random, random.below(2), out);
}

void HitsText::appendTitle(uint64_t index, TextBuffer& out) const
{
    SmallDraws random(mixSeed(seed_ ^ 0x7171E, index));
    appendCyrillicWords(random, 3 + random.below(5), out);
    out += " — ";
    out.appendShort(hosts_.row(logUniformRank(random.unit(), kHosts)));
}

void HitsText::appendGoogleTitle(uint64_t index, TextBuffer& out) const
{
    SmallDraws random(mixSeed(seed_ ^ 0x6006, index));
    appendCyrillicWords(random, 1 + random.below(3), out);
    out += random.chance(0.5) ? " - Поиск в Google" : " — Google Chrome";
}

void HitsText::appendReferer(uint64_t index, double domain_unit, TextBuffer& out) const
{
    SmallDraws random(mixSeed(seed_ ^ 0x4EFE4E4, index));
    out += random.chance(0.1) ? "https://" : "http://";
    if (random.chance(0.3))
    {
        out += "www.";
    }
    double known_total = 0;
    for (const WeightedDomain& known : kRefererDomains)
    {
        known_total += known.weight;
        if (domain_unit < known_total)
        {
            out += known.domain;
            break;
        }
    }
    if (domain_unit >= known_total)
    {
        const double unit = (domain_unit - known_total) / (1 - known_total);
        out.appendShort(referer_hosts_.row(logUniformRank(unit, kInventedDomains)));
    }
    if (random.chance(0.03))
    {
        return;  // No path: Q29's regexp does not match and keeps the whole referer.
    }
    appendPath(random, 1 + random.below(4), out);
    appendIndexSegment(index, out);
    if (random.chance(0.6))
    {
        appendQuery(random, out);
    }
}

void HitsText::appendSearchPhrase(uint64_t index, TextBuffer& out) const
{
    SmallDraws random(mixSeed(seed_ ^ 0x5EA4C4, index));
    const double prefix = random.unit();
    if (prefix < 0.005)
    {
        out += ' ';
    }
    else if (prefix < 0.008)
    {
        out += '!';
    }
    // The words spell the index in base kCyrillicWords.size(), so distinct indices give
    // distinct phrases; a seeded offset per position varies the vocabulary between seeds.
    uint64_t rest = index;
    for (size_t position = 0;; ++position)
    {
        const uint64_t digit =
            (rest % kCyrillicWords.size() + mixSeed(seed_, position) % kCyrillicWords.size()) %
            kCyrillicWords.size();
        out.appendShort(kCyrillicWords[digit]);
        rest /= kCyrillicWords.size();
        if (rest == 0)
        {
            break;
        }
        out += ' ';
    }
    if (random.chance(0.1))
    {
        out += ' ';
        out.appendShort(pick(kLatinWords, random));
    }
}

void HitsText::appendMobilePhoneModel(uint64_t index, TextBuffer& out) const
{
    if (index == 0)
    {
        out += "iPad";
        return;
    }
    if (index == 1)
    {
        out += "iPhone";
        return;
    }
    static constexpr auto kPrefixes =
        padded(std::array{"GT-I"sv, "GT-P"sv, "GT-S"sv, "N"sv, "A"sv, "ONE TOUCH "sv, "LG-P"sv,
                          "HTC "sv, "SM-G"sv, "LT"sv, "MT"sv});
    SmallDraws random(mixSeed(seed_ ^ 0x40B11E, index));
    out.appendShort(pick(kPrefixes, random));
    appendDecimal(100 + random.below(9900), out);
    if (random.chance(0.3))
    {
        out += static_cast<char>('A' + random.below(26));
    }
}

}  // namespace granary::datagen
