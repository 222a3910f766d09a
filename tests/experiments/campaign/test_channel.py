"""The pipe between the runner and a worker: whole messages however large, an end that
reads as EOFError, and waiting for whichever end has something to read."""

from __future__ import annotations

import os
import threading

import pytest

from experiments.campaign.executors.channel import Channel, readable


def pair() -> tuple[Channel, Channel]:
    reader, writer = os.pipe()
    return Channel(reader), Channel(writer)


def test_messages_larger_than_the_pipe_arrive_whole_and_in_order() -> None:
    reader, writer = pair()
    big = {"solution": list(range(200_000)), "text": "é" * 100_000}  # past a pipe's 64 KiB
    sender = threading.Thread(target=lambda: [writer.send(m) for m in (big, None, ("r", 1))])
    sender.start()
    assert [reader.recv(), reader.recv(), reader.recv()] == [big, None, ("r", 1)]
    sender.join()
    writer.close()
    with pytest.raises(EOFError):
        reader.recv()
    reader.close()


def test_waiting_returns_the_ends_with_something_to_read() -> None:
    (first, first_writer), (second, second_writer) = pair(), pair()
    assert readable([first, second], 0.01) == []
    second_writer.send("ready")
    assert readable([first, second], 1.0) == [second]
    first_writer.close()  # a closed pipe reads (its end), so its owner hears of it
    assert readable([first, second], 1.0) == [first, second]
    for channel in (first, second, second_writer):
        channel.close()
