// Trains an MLP or a small CNN on scikit-learn's 1,797 8x8 handwritten digits with
// vkt::value_and_grad and SGD with momentum, on the cpu or on Vulkan, and reports the test
// accuracy on a fixed split (the Python version: examples/python/train_digits.py).
//
//   vkt-train-digits --model cnn --device vulkan --require 0.97
//
// The step (forward, backward) is one vkt::compile'd plan; the parameters, the data and
// the momentum stay on the chosen device, and the ledger's fallbacks and downloads are
// printed so a backward pass that left the device cannot pass unnoticed.
#include <zlib.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "vkt/compile.h"
#include "vkt/vkt.h"

namespace {

using vkt::Tensor;
using Ts = std::vector<Tensor>;

constexpr const char* kDefaultData =
    "/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz";
constexpr int kPixels = 64, kClasses = 10, kBatch = 32;

struct Options {
  std::string model = "mlp", device = "cpu", data = kDefaultData;
  int epochs = 30;
  double require = 0;  // the least test accuracy for exit status 0
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument("missing a value after " + arg);
    const std::string value = argv[++i];
    if (arg == "--model" && (value == "mlp" || value == "cnn")) {
      o.model = value;
    } else if (arg == "--device" && (value == "cpu" || value == "vulkan")) {
      o.device = value;
    } else if (arg == "--epochs") {
      o.epochs = std::stoi(value);
    } else if (arg == "--require") {
      o.require = std::stod(value);
    } else if (arg == "--data") {
      o.data = value;
    } else {
      throw std::invalid_argument("unknown option or value: " + arg + " " + value +
                                  " (--model mlp|cnn, --device cpu|vulkan, --epochs N, "
                                  "--require ACCURACY, --data digits.csv.gz)");
    }
  }
  return o;
}

// The digits: 64 pixel values (0..16) and the label per line.
struct Digits {
  std::vector<float> pixels;
  std::vector<int> labels;
};

Digits load(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr) {
    throw std::runtime_error(
        "cannot open " + path +
        " (Debian's python3-sklearn ships it: apt-get install python3-sklearn)");
  }
  Digits d;
  char line[4096];
  while (gzgets(f, line, sizeof line) != nullptr) {
    std::stringstream row(line);
    std::string cell;
    std::vector<float> cells;
    while (std::getline(row, cell, ',')) cells.push_back(std::stof(cell));
    if (cells.size() != kPixels + 1) continue;
    for (int p = 0; p < kPixels; ++p) d.pixels.push_back(cells[static_cast<std::size_t>(p)] / 16);
    d.labels.push_back(static_cast<int>(cells.back()));
  }
  gzclose(f);
  if (d.labels.size() != 1797) {
    throw std::runtime_error(path + ": expected 1797 digits, read " +
                             std::to_string(d.labels.size()));
  }
  return d;
}

// A fixed pseudo-random stream (the split and the initial weights are the same every run).
struct Lcg {
  std::uint64_t state;
  double next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) / static_cast<double>(1ull << 53);
  }
};

// Rows `order[begin, end)` as {n, 64} pixels and {n, 10} one-hot labels on `device`.
std::pair<Tensor, Tensor> rows(const Digits& d, const std::vector<std::size_t>& order,
                               std::size_t begin, std::size_t end, vkt::Backend& device) {
  std::vector<float> x, y;
  for (std::size_t i = begin; i < end; ++i) {
    const std::size_t r = order[i];
    x.insert(x.end(), d.pixels.begin() + static_cast<std::ptrdiff_t>(r * kPixels),
             d.pixels.begin() + static_cast<std::ptrdiff_t>((r + 1) * kPixels));
    for (int c = 0; c < kClasses; ++c) y.push_back(d.labels[r] == c ? 1.0f : 0.0f);
  }
  const auto n = static_cast<std::int64_t>(end - begin);
  return {vkt::from_vector<float>(x, {n, kPixels}, &device),
          vkt::from_vector<float>(y, {n, kClasses}, &device)};
}

// Glorot-uniform weights of `shape` whose fan-in and fan-out are given.
Tensor weights(Lcg& rng, const vkt::Shape& shape, double fan_in, double fan_out,
               vkt::Backend& device) {
  const double limit = std::sqrt(6.0 / (fan_in + fan_out));
  std::vector<float> w(static_cast<std::size_t>(vkt::numel(shape)));
  for (float& v : w) v = static_cast<float>((2 * rng.next() - 1) * limit);
  return vkt::from_vector<float>(w, shape, &device);
}

// The model's logits {n, 10} for pixels {n, 64}, from params.
Tensor logits(const std::string& model, const Ts& p, const Tensor& x) {
  if (model == "mlp") {  // 64 -> 128 (relu) -> 10
    const Tensor h = vkt::max(vkt::add(vkt::matmul(x, p[0]), p[1]), 0.0f);
    return vkt::add(vkt::matmul(h, p[2]), p[3]);
  }
  // conv 3x3 (16 channels, same) -> relu -> 2x2 max pool -> 256 -> 10
  const std::int64_t n = x.dim(0);
  vkt::ConvOptions same;
  same.padding = {{1, 1}, {1, 1}};
  const Tensor image = vkt::reshape(x, {n, 1, 8, 8});
  const Tensor bias = vkt::reshape(p[1], {1, 16, 1, 1});
  const Tensor features = vkt::max(vkt::add(vkt::conv(image, p[0], same), bias), 0.0f);
  vkt::WindowOptions pool;
  pool.strides = {1, 1, 2, 2};
  const Tensor pooled = vkt::window_max(features, {1, 1, 2, 2}, pool);  // {n, 16, 4, 4}
  return vkt::add(vkt::matmul(vkt::reshape(pooled, {n, 256}), p[2]), p[3]);
}

Ts initial_params(const std::string& model, vkt::Backend& device) {
  Lcg rng{42};
  const auto zeros = [&](std::int64_t n) { return vkt::full({n}, 0, vkt::DType::f32, &device); };
  if (model == "mlp") {
    return {weights(rng, {kPixels, 128}, kPixels, 128, device), zeros(128),
            weights(rng, {128, kClasses}, 128, kClasses, device), zeros(kClasses)};
  }
  return {weights(rng, {16, 1, 3, 3}, 9, 16 * 9, device), zeros(16),
          weights(rng, {256, kClasses}, 256, kClasses, device), zeros(kClasses)};
}

// Mean softmax cross-entropy against one-hot labels.
Tensor cross_entropy(const Tensor& z, const Tensor& one_hot) {
  const Tensor shifted = vkt::subtract(z, vkt::stop_gradient(vkt::reduce_max(z, {1}, true)));
  const Tensor log_p = vkt::subtract(shifted, vkt::log(vkt::sum(vkt::exp(shifted), {1}, true)));
  return vkt::divide(vkt::negate(vkt::sum(vkt::multiply(log_p, one_hot))),
                     static_cast<float>(z.dim(0)));
}

double accuracy(const std::string& model, const Ts& params, const Tensor& x, const Tensor& y) {
  const Tensor hit = vkt::equal(vkt::argmax(logits(model, params, x), 1), vkt::argmax(y, 1));
  return vkt::sum(vkt::as_type(hit, vkt::DType::f64)).item<double>() /
         static_cast<double>(x.dim(0));
}

int run(const Options& o) {
  vkt::Backend& device = o.device == "vulkan" ? vkt::vulkan() : vkt::cpu();
  const Digits digits = load(o.data);
  std::vector<std::size_t> order(digits.labels.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  Lcg shuffle{7};
  for (std::size_t i = order.size() - 1; i > 0; --i) {
    std::swap(order[i],
              order[static_cast<std::size_t>(shuffle.next() * static_cast<double>(i + 1))]);
  }
  const std::size_t n_train = 1437;  // 80% train, 20% test
  const auto [x_train, y_train] = rows(digits, order, 0, n_train, device);
  const auto [x_test, y_test] = rows(digits, order, n_train, order.size(), device);

  Ts params = initial_params(o.model, device);
  Ts velocity;
  for (const Tensor& p : params) velocity.push_back(vkt::full(p.shape(), 0, p.dtype(), &device));
  const std::string model = o.model;
  const vkt::TensorFunction loss = [model](const Ts& a) {  // params..., x, y
    const Ts p(a.begin(), a.begin() + 4);
    return Ts{cross_entropy(logits(model, p, a[4]), a[5])};
  };
  auto step = vkt::compile(vkt::value_and_grad(loss, {0, 1, 2, 3}));
  const float rate = 0.05f, momentum = 0.9f;
  const auto start = std::chrono::steady_clock::now();
  const vkt::LedgerScope ledger;
  for (int epoch = 0; epoch < o.epochs; ++epoch) {
    Tensor epoch_loss = vkt::full({}, 0, vkt::DType::f32, &device);
    const std::int64_t batches = static_cast<std::int64_t>(n_train) / kBatch;
    for (std::int64_t b = 0; b < batches; ++b) {
      Ts args = params;
      args.push_back(vkt::slice(x_train, {b * kBatch, 0}, {kBatch, kPixels}));
      args.push_back(vkt::slice(y_train, {b * kBatch, 0}, {kBatch, kClasses}));
      const Ts out = step(args);  // loss, then one gradient per parameter
      epoch_loss = vkt::add(epoch_loss, out[0]);
      for (std::size_t i = 0; i < params.size(); ++i) {
        velocity[i] = vkt::add(vkt::multiply(velocity[i], momentum), out[1 + i]);
        params[i] = vkt::subtract(params[i], vkt::multiply(velocity[i], rate));
      }
    }
    if (epoch == 0 || epoch + 1 == o.epochs || (epoch + 1) % 10 == 0) {
      std::printf("epoch %3d  loss %.4f\n", epoch + 1,
                  epoch_loss.item<float>() / static_cast<float>(batches));
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const vkt::LedgerCounts moved = ledger.delta();
  const double acc = accuracy(o.model, params, x_test, y_test);
  std::printf("%s on %s: test accuracy %.4f (%zu of 1797 held out), %d epochs in %.2f s\n",
              o.model.c_str(), device.name().c_str(), acc, order.size() - n_train, o.epochs,
              seconds);
  std::printf("training ledger: %llu fallbacks, %llu downloads (a device: one per printed loss)\n",
              static_cast<unsigned long long>(moved.fallbacks),
              static_cast<unsigned long long>(moved.downloads));
  if (moved.fallbacks != 0) {
    std::printf("FAIL: an op of the training step left %s\n", device.name().c_str());
    return 1;
  }
  if (acc < o.require) {
    std::printf("FAIL: test accuracy %.4f is below the required %.4f\n", acc, o.require);
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vkt-train-digits: %s\n", e.what());
    return 2;
  }
}
