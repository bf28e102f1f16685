// The differential fuzzer's threads change only its speed (tests/fuzz/campaign.h): a run of
// K programs on several threads accounts for them in index order, so its counts, op counts,
// mismatching programs and listings equal a single-threaded run's.
#include <sstream>
#include <string>

#include "conformance/fixture.h"
#include "fuzz/campaign.h"

namespace vkt::testing {
namespace {

class FuzzCampaign : public VulkanTest {};

TEST_F(FuzzCampaign, ThreadsGiveTheSingleThreadedCountsAndListings) {
  fuzz::CampaignOptions o;
  o.seed = 91;
  o.first = 40;
  o.programs = 24;
  o.verbose = true;  // every program's listing, in index order
  o.threads = 1;
  std::ostringstream one_out, three_out;
  const fuzz::CampaignSummary one = fuzz::run_campaign(o, one_out);
  o.threads = 3;
  const fuzz::CampaignSummary three = fuzz::run_campaign(o, three_out);
  EXPECT_EQ(one.programs, 24u);
  EXPECT_GT(one.nodes, one.programs);
  EXPECT_EQ(three.programs, one.programs);
  EXPECT_EQ(three.nodes, one.nodes);
  EXPECT_EQ(three.errors, one.errors);
  EXPECT_EQ(three.op_counts, one.op_counts);
  EXPECT_EQ(three.failing, one.failing);
  EXPECT_EQ(three_out.str(), one_out.str());
  EXPECT_NE(one_out.str().find("program 63:"), std::string::npos);
}

TEST_F(FuzzCampaign, BreakdownCountsEveryProgramAndTheDevicesWork) {
  fuzz::CampaignOptions o;
  o.seed = 92;
  o.programs = 10;
  o.threads = 2;
  std::ostringstream out;
  const fuzz::CampaignSummary s = fuzz::run_campaign(o, out);
  EXPECT_EQ(s.times.programs, 10u);
  EXPECT_GT(s.times.generate_ns, 0u);
  EXPECT_GT(s.times.run.cpu_ns, 0u);
  EXPECT_GT(s.times.run.record_ns, 0u);
  EXPECT_GT(s.ledger.submits, 0u);
  EXPECT_GT(s.ledger.downloads, 0u);
  const std::string text = fuzz::breakdown(s);
  EXPECT_NE(text.find("programs/s (2 threads"), std::string::npos) << text;
  EXPECT_NE(text.find("pipelines_created"), std::string::npos) << text;
}

}  // namespace
}  // namespace vkt::testing
