#!/usr/bin/env python3
"""Runs N queries on one native-protocol connection with an idle gap between them and prints,
per query: first_row (query sent -> first row), eos (-> EndOfStream), tail (first row ->
EndOfStream) and the data segments the server sent (the client's tcpi_data_segs_in delta)."""
import argparse
import socket
import struct
import time

from clickhouse_driver import Client
from clickhouse_driver.protocol import ServerPacketTypes

# struct tcp_info: tcpi_data_segs_in is the u32 at byte 152 (Linux >= 4.6).
TCP_INFO_BYTES = 160
DATA_SEGS_IN_OFFSET = 152


def data_segments_in(sock):
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, TCP_INFO_BYTES)
    return struct.unpack_from("I", info, DATA_SEGS_IN_OFFSET)[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=9000)
    parser.add_argument("--queries", type=int, default=5)
    parser.add_argument("--idle", type=float, default=2.0)
    parser.add_argument("--batch", type=int, choices=(0, 1), default=1)
    parser.add_argument("--query", default="SELECT max(id) FROM benchmark_test")
    args = parser.parse_args()

    client = Client(host=args.host, port=args.port,
                    settings={"granary_batch_end_of_query": args.batch})
    client.execute("SELECT max(id) FROM benchmark_test")  # Connect and warm up.
    connection = client.connection
    print(f"addr={args.host}:{args.port} idle={args.idle}s batch={args.batch} "
          f"query: {args.query}")
    for number in range(1, args.queries + 1):
        time.sleep(args.idle)
        segments_before = data_segments_in(connection.socket)
        start = time.perf_counter()
        connection.send_query(args.query)
        connection.send_external_tables(None)
        first_row = None
        rows = 0
        while True:
            packet = connection.receive_packet()
            if packet.type == ServerPacketTypes.DATA and packet.block.num_rows > 0:
                rows += packet.block.num_rows
                if first_row is None:
                    first_row = time.perf_counter()
            elif packet.type == ServerPacketTypes.EXCEPTION:
                raise packet.exception
            elif packet.type == ServerPacketTypes.END_OF_STREAM:
                break
        end = time.perf_counter()
        segments = data_segments_in(connection.socket) - segments_before
        first_row = first_row or end
        print(f"query {number:2d}: first_row={1000 * (first_row - start):7.2f}ms "
              f"eos={1000 * (end - start):7.2f}ms tail={1000 * (end - first_row):7.2f}ms "
              f"server_segments={segments} (rows={rows})", flush=True)


if __name__ == "__main__":
    main()
