#pragma once

#include <memory>

#include "server/server.h"
#include "tests/server/fake_query_handler.h"

namespace granary::server::testing
{

/// A server on a free loopback port over a FakeQueryHandler, stopped on destruction.
struct TestServer
{
    explicit TestServer(ServerConfig config = {})
        : handler(std::make_shared<FakeQueryHandler>()),
          server(
              [&]
              {
                  config.port = 0;
                  return config;
              }(),
              handler)
    {
        server.start();
    }
    uint16_t port() const { return server.port(); }

    std::shared_ptr<FakeQueryHandler> handler;
    Server server;
};

}  // namespace granary::server::testing
