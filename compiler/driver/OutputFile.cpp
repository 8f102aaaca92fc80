#include "driver/OutputFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <iterator>
#include <sys/stat.h>
#include <unistd.h>

namespace tle {

namespace {

bool writeAll(int fd, const std::string &content) {
  size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

OutputSet::~OutputSet() {
  for (const Staged &s : staged_)
    if (!s.temp.empty()) ::unlink(s.temp.c_str());
}

bool OutputSet::add(const std::string &path, std::string content, DiagnosticEngine &diags) {
  if (path.empty() || path == "-") {
    stdoutContent_ += content;
    hasStdout_ = true;
    return true;
  }
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    diags.report(DiagId::CannotWriteFile, "cannot write '" + path + "': it is a directory");
    return false;
  }
  std::string temp = path + ".tmp-XXXXXX";
  int fd = ::mkstemp(temp.data());
  if (fd < 0) {
    diags.report(DiagId::CannotWriteFile, "cannot write '" + path + "': " + std::strerror(errno));
    return false;
  }
  staged_.push_back({path, temp});
  // mkstemp creates 0600; give the file the mode a plain open() would have.
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  bool ok = writeAll(fd, content);
  int savedErrno = errno;
  if (::close(fd) != 0 && ok) ok = false, savedErrno = errno;
  if (!ok) diags.report(DiagId::CannotWriteFile, "cannot write '" + path + "': " + std::strerror(savedErrno));
  return ok;
}

bool OutputSet::commit(DiagnosticEngine &diags) {
  for (size_t i = 0; i < staged_.size(); ++i) {
    if (::rename(staged_[i].temp.c_str(), staged_[i].path.c_str()) != 0) {
      diags.report(DiagId::CannotWriteFile, "cannot write '" + staged_[i].path + "': " + std::strerror(errno));
      return false;
    }
    staged_[i].temp.clear();
  }
  staged_.clear();
  if (hasStdout_) {
    std::cout << stdoutContent_;
    std::cout.flush();
    if (!std::cout) {
      diags.report(DiagId::CannotWriteFile, "cannot write to standard output");
      return false;
    }
  }
  return true;
}

bool readInputFile(const std::string &path, std::string &content, DiagnosticEngine &diags) {
  if (path == "-") {
    content.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return true;
  }
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    diags.report(DiagId::CannotOpenFile, "cannot open '" + path + "': " + std::strerror(errno));
    return false;
  }
  if (S_ISDIR(st.st_mode)) {
    diags.report(DiagId::CannotOpenFile, "cannot open '" + path + "': it is a directory");
    return false;
  }
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) {
    diags.report(DiagId::CannotOpenFile, "cannot open '" + path + "': " + std::strerror(errno));
    return false;
  }
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) content.append(buf, n);
  bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) {
    diags.report(DiagId::CannotOpenFile, "cannot read '" + path + "'");
    return false;
  }
  return true;
}

}  // namespace tle
