#include "engine/sql/statement_splitter.h"

#include "engine/common/exception.h"
#include "engine/sql/lexer.h"

namespace granary::sql
{

std::vector<std::string_view> splitStatements(std::string_view script)
{
    std::vector<Token> tokens;
    try
    {
        tokens = tokenize(script);
    }
    catch (const Exception&)
    {
        return {script};
    }
    std::vector<std::string_view> statements;
    size_t begin = 0;
    bool has_tokens = false;
    for (const Token& token : tokens)
    {
        if (token.kind == TokenKind::Semicolon || token.kind == TokenKind::EndOfInput)
        {
            const size_t end =
                token.kind == TokenKind::Semicolon ? token.position.offset : script.size();
            if (has_tokens)
            {
                statements.push_back(script.substr(begin, end - begin));
            }
            begin = end + 1;
            has_tokens = false;
        }
        else
        {
            has_tokens = true;
        }
    }
    return statements;
}

}  // namespace granary::sql
