// The stream-order model behind the unjoined-stream rule (src/metrics/stream_order.hpp), on the
// operation sequences real forwards issue.
#include "metrics/stream_order.hpp"

#include <gtest/gtest.h>

namespace kforge::census {
namespace {

using Kind = StreamOp::Kind;
constexpr uint64_t kSide = 0x7f00, kOther = 0x7f10, kBlockingSide = 0x7f20;

StreamOp launch(uint64_t stream, uint32_t id) { return {Kind::launch, stream, 0, id}; }
StreamOp record(uint64_t stream, uint64_t event) { return {Kind::record, stream, event, 0}; }
StreamOp wait(uint64_t stream, uint64_t event) { return {Kind::wait, stream, event, 0}; }

bool blocking(uint64_t stream) { return stream == kBlockingSide; }

TEST(StreamOrder, WorkOnTheCallersStreamIsJoined) {
  EXPECT_TRUE(unjoined_launches({launch(kLegacyStream, 1), launch(kLegacyStream, 2)}, kLegacyStream, blocking).empty());
  EXPECT_TRUE(unjoined_launches({launch(kSide, 1)}, kSide, blocking).empty());
}

TEST(StreamOrder, ASideStreamNeverWaitedForIsUnjoined) {
  // The torch hack: the side stream waits for the caller's first (it sees the inputs), then works,
  // and the caller never waits for it.
  auto out = unjoined_launches({record(kLegacyStream, 1), wait(kSide, 1), launch(kSide, 10), launch(kSide, 11)},
                               kLegacyStream, blocking);
  EXPECT_EQ(out, (std::vector<uint32_t>{10, 11}));
}

TEST(StreamOrder, AnEventWaitJoinsWhatWasRecordedAndNothingAfter) {
  auto out = unjoined_launches({launch(kSide, 10), record(kSide, 5), launch(kSide, 11), wait(kLegacyStream, 5)},
                               kLegacyStream, blocking);
  EXPECT_EQ(out, (std::vector<uint32_t>{11})) << "the kernel after the record is not covered by the wait";
}

TEST(StreamOrder, JoinsAreTransitive) {
  // side waits for other's event, then side records and the caller waits: both are joined.
  auto out = unjoined_launches({launch(kOther, 20), record(kOther, 1), wait(kSide, 1), launch(kSide, 10),
                                record(kSide, 2), wait(kLegacyStream, 2)},
                               kLegacyStream, blocking);
  EXPECT_TRUE(out.empty());
}

TEST(StreamOrder, HostSynchronisationsCoverWhatTheyWaitedFor) {
  EXPECT_TRUE(unjoined_launches({launch(kSide, 10), {Kind::sync_stream, kSide, 0, 0}}, kLegacyStream, blocking).empty());
  EXPECT_TRUE(unjoined_launches({launch(kSide, 10), {Kind::sync_device, 0, 0, 0}}, kLegacyStream, blocking).empty());
  EXPECT_TRUE(unjoined_launches({launch(kSide, 10), record(kSide, 3), {Kind::sync_event, 0, 3, 0}}, kLegacyStream, blocking).empty());
  // A synchronisation before the launch covers nothing after it.
  auto late = unjoined_launches({{Kind::sync_device, 0, 0, 0}, launch(kSide, 10)}, kLegacyStream, blocking);
  EXPECT_EQ(late, (std::vector<uint32_t>{10}));
}

TEST(StreamOrder, TheLegacyStreamWaitsForBlockingStreamsOnly) {
  // A caller on the legacy stream is implicitly ordered after a blocking side stream, never after a
  // non-blocking one (PyTorch's pool streams and cudaStreamNonBlocking streams).
  EXPECT_TRUE(unjoined_launches({launch(kBlockingSide, 10)}, kLegacyStream, blocking).empty());
  EXPECT_EQ(unjoined_launches({launch(kSide, 10)}, kLegacyStream, blocking), (std::vector<uint32_t>{10}));
  // A caller on a non-default stream gets no implicit wait from anyone.
  EXPECT_EQ(unjoined_launches({launch(kBlockingSide, 10)}, kOther, blocking), (std::vector<uint32_t>{10}));
  // Work on the legacy stream, read from a blocking caller stream: implicitly ordered.
  EXPECT_TRUE(unjoined_launches({launch(kLegacyStream, 10)}, kBlockingSide, blocking).empty());
}

TEST(StreamOrder, AWaitOnAnEventNeverRecordedOrdersNothing) {
  EXPECT_EQ(unjoined_launches({launch(kSide, 10), wait(kLegacyStream, 99)}, kLegacyStream, blocking),
            (std::vector<uint32_t>{10}));
}

}  // namespace
}  // namespace kforge::census
