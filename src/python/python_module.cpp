// iclproof._iclproof, the compiled half of the Python package `iclproof` (docs/python.md; the
// other half is src/python/iclproof/__init__.py). Two jobs:
//
//  run(argv)         runs `iclproof` or `iclproof-python-engine` (the verifier itself, linked
//                    from the same libraries as the command line) as a child process with the
//                    GIL released, passes its stdout and stderr through to sys.stdout and
//                    sys.stderr line by line as they come (the progress lines included), and
//                    looks for Ctrl-C every 50 ms: on a pending KeyboardInterrupt it ends the
//                    child (SIGTERM, then SIGKILL after 2 s) and raises it. Returns the exit
//                    code and the child's "iclproof: error: ..." line, if any.
//  exact_matrix(x)   a 2-D numpy array (or nested lists) of Fractions, ints, "p/q" strings or
//                    floats, as rows of exact "p/q" text, row-major as the array is indexed:
//                    a float is its exact binary value, NaN and infinities are refused, and any
//                    other object is refused by its type.
//
// Why a child process and not the verifier in this shared object: Debian's librapidcheck.a is
// compiled without -fPIC (measured: linking it into a shared object fails with "relocation
// R_X86_64_PC32 against symbol ... can not be used when making a shared object; recompile with
// -fPIC", also with -Bsymbolic, --exclude-libs and its unique symbols weakened), and the
// property harness is built on it.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

extern char** environ;

namespace py = pybind11;

namespace {

constexpr std::string_view error_prefix = "iclproof: error: ";

struct pipe_pair {
  int fd[2] = {-1, -1};
  pipe_pair() {
    if (::pipe2(fd, O_CLOEXEC) != 0)
      throw std::runtime_error("pipe: " + std::string(strerror(errno)));
  }
  ~pipe_pair() {
    for (int f : fd)
      if (f >= 0) ::close(f);
  }
};

// The child leads a process group of its own (its --jobs workers are in it): end them all.
void end_child(pid_t pid) {
  ::kill(-pid, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

std::pair<int, std::string> run(const std::vector<std::string>& argv) {
  if (argv.empty()) throw std::invalid_argument("run: empty command");
  pipe_pair out, err;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out.fd[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err.fd[1], 2);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);  // a new group, led by the child
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, args[0], &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (rc != 0) throw std::runtime_error("cannot run " + argv[0] + ": " + strerror(rc));
  ::close(out.fd[1]);
  out.fd[1] = -1;
  ::close(err.fd[1]);
  err.fd[1] = -1;

  py::object sys = py::module_::import("sys");
  std::string pending[2], error_line;
  bool open[2] = {true, true};
  const int fds[2] = {out.fd[0], err.fd[0]};
  // Passes complete lines of stream k on to sys.stdout / sys.stderr (GIL held).
  const auto forward = [&](int k, bool flush_all) {
    std::string& buf = pending[k];
    std::size_t end = buf.size();
    if (!flush_all) {
      const std::size_t last = buf.rfind('\n');
      if (last == std::string::npos) return;
      end = last + 1;
    }
    const std::string text = buf.substr(0, end);
    buf.erase(0, end);
    if (text.empty()) return;
    if (k == 1) {
      std::size_t at = 0;
      while (at < text.size()) {
        std::size_t nl = text.find('\n', at);
        if (nl == std::string::npos) nl = text.size();
        const std::string line = text.substr(at, nl - at);
        if (line.rfind(error_prefix, 0) == 0) error_line = line.substr(error_prefix.size());
        at = nl + 1;
      }
    }
    py::object stream = sys.attr(k == 0 ? "stdout" : "stderr");
    stream.attr("write")(text);
    stream.attr("flush")();
  };
  while (open[0] || open[1]) {
    pollfd p[2];
    int n = 0, which[2];
    for (int k = 0; k < 2; ++k)
      if (open[k]) {
        p[n] = {fds[k], POLLIN, 0};
        which[n++] = k;
      }
    {
      py::gil_scoped_release release;
      ::poll(p, static_cast<nfds_t>(n), 50);
      for (int i = 0; i < n; ++i) {
        if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        char chunk[65536];
        const ssize_t got = ::read(p[i].fd, chunk, sizeof chunk);
        if (got > 0)
          pending[which[i]].append(chunk, static_cast<std::size_t>(got));
        else if (got == 0 || (errno != EINTR && errno != EAGAIN))
          open[which[i]] = false;
      }
    }
    for (int k = 0; k < 2; ++k) forward(k, !open[k]);
    if (PyErr_CheckSignals() != 0) {  // Ctrl-C (KeyboardInterrupt) or another handler raised
      {
        py::gil_scoped_release release;
        end_child(pid);
      }
      throw py::error_already_set();
    }
  }
  int status = 0;
  {
    py::gil_scoped_release release;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  // A Ctrl-C that came after the last look.
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  return {code, error_line};
}

[[noreturn]] void refuse(const std::string& what, py::ssize_t i, py::ssize_t j,
                         const std::string& why, PyObject* type = PyExc_ValueError) {
  PyErr_SetString(
      type,
      (what + ": entry [" + std::to_string(i) + "][" + std::to_string(j) + "] " + why).c_str());
  throw py::error_already_set();
}

// One entry as exact "p/q" text (Fraction, int, str, float; bool and the rest refused).
std::string exact_text(const py::handle& x, const std::string& what, py::ssize_t i, py::ssize_t j) {
  static const py::object fraction = py::module_::import("fractions").attr("Fraction");
  static const py::object numbers = py::module_::import("numbers");
  const auto as_text = [](const py::object& f) {
    const std::string num = py::str(f.attr("numerator")), den = py::str(f.attr("denominator"));
    return den == "1" ? num : num + "/" + den;
  };
  if (py::isinstance<py::bool_>(x) || py::isinstance(x, py::module_::import("numpy").attr("bool_")))
    refuse(what, i, j, "is a bool, not a number", PyExc_TypeError);
  if (py::isinstance(x, fraction)) return as_text(py::reinterpret_borrow<py::object>(x));
  if (py::isinstance<py::str>(x)) {
    try {
      return as_text(fraction(x));
    } catch (py::error_already_set&) {
      refuse(what, i, j, "'" + x.cast<std::string>() + "' is not an exact number (write p/q)");
    }
  }
  if (py::isinstance(x, numbers.attr("Integral")))
    return py::str(py::int_(py::reinterpret_borrow<py::object>(x)));
  if (py::isinstance(x, numbers.attr("Real")) && !py::isinstance(x, numbers.attr("Rational"))) {
    const double v = py::float_(py::reinterpret_borrow<py::object>(x));
    if (!std::isfinite(v))
      refuse(what, i, j, "is " + std::string(py::str(py::float_(v))) + ", not a finite number");
    return as_text(fraction(py::float_(v)));  // the exact binary value
  }
  refuse(what, i, j,
         "is a " + std::string(py::str(x.get_type().attr("__name__"))) +
             ", not a Fraction, int, str or float",
         PyExc_TypeError);
}

std::vector<std::vector<std::string>> exact_matrix(const py::object& x, const std::string& what) {
  const py::object np = py::module_::import("numpy");
  py::array a;
  try {
    a = np.attr("asarray")(
        x, py::arg("dtype") =
               (py::isinstance<py::array>(x) ? py::none() : py::object(np.attr("object_"))));
  } catch (py::error_already_set&) {
    throw py::value_error(what + ": not a matrix (ragged rows?)");
  }
  if (a.ndim() != 2)
    throw py::value_error(what + ": a matrix has 2 dimensions, this has " +
                          std::to_string(a.ndim()));
  const py::ssize_t rows = a.shape(0), cols = a.shape(1);
  if (rows < 1 || cols < 1) throw py::value_error(what + ": an empty matrix");
  std::vector<std::vector<std::string>> out(static_cast<std::size_t>(rows));
  // Entry (i, j) of the array is row i, column j: item((i, j)) indexes as numpy does, whatever
  // the memory order (C, Fortran, a transposed view).
  for (py::ssize_t i = 0; i < rows; ++i)
    for (py::ssize_t j = 0; j < cols; ++j)
      out[static_cast<std::size_t>(i)].push_back(
          exact_text(a.attr("item")(py::make_tuple(i, j)), what, i, j));
  return out;
}

}  // namespace

PYBIND11_MODULE(_iclproof, m) {
  m.doc() = "iclproof's compiled helpers (use the package iclproof: docs/python.md)";
  m.def("run", &run, py::arg("argv"),
        "Runs a verifier executable, passing its output through; (exit code, error line)");
  m.def("exact_matrix", &exact_matrix, py::arg("x"), py::arg("what"),
        "Rows of exact p/q text of a 2-D array of Fractions, ints, strings or floats");
}
