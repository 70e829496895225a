#pragma once
// A thin RAII layer over the SQLite C API: a connection, prepared statements, transactions.
// Every failure throws kforge::Error with SQLite's own message and the statement involved.
#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace kforge::sqlite {

class Statement;

class Database {
 public:
  // Opens (creating if needed) the file, in WAL mode with a busy timeout, foreign keys on.
  explicit Database(const std::filesystem::path& path, int busy_timeout_ms = 5000);
  ~Database();
  Database(const Database&) = delete;  // owns the connection handle
  Database& operator=(const Database&) = delete;

  void exec(std::string_view sql);
  Statement prepare(std::string_view sql);
  int64_t last_insert_rowid() const;
  sqlite3* handle() const { return db_; }
  const std::filesystem::path& path() const { return path_; }

  [[noreturn]] void fail(std::string_view what) const;

 private:
  sqlite3* db_ = nullptr;
  std::filesystem::path path_;
};

class Statement {
 public:
  Statement(Database& db, std::string_view sql);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement(const Statement&) = delete;  // owns the statement handle
  Statement& operator=(const Statement&) = delete;
  Statement& operator=(Statement&&) = delete;

  Statement& bind(int index, std::nullopt_t);
  Statement& bind(int index, int64_t v);
  Statement& bind(int index, int v) { return bind(index, int64_t{v}); }
  Statement& bind(int index, double v);
  Statement& bind(int index, std::string_view v);
  Statement& bind(int index, const std::string& v) { return bind(index, std::string_view(v)); }
  Statement& bind(int index, const char* v) { return bind(index, std::string_view(v)); }
  template <class T>
  Statement& bind(int index, const std::optional<T>& v) {
    return v ? bind(index, *v) : bind(index, std::nullopt);
  }

  bool step();  // true while a row is available
  void run() { step(); }
  void reset();

  bool is_null(int column) const;
  int64_t int_at(int column) const;
  double real_at(int column) const;
  std::string text_at(int column) const;
  std::optional<double> optional_real_at(int column) const;
  std::optional<int64_t> optional_int_at(int column) const;

 private:
  Database* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// Commits on commit(); rolls back if destroyed first (an exception left the scope).
class Transaction {
 public:
  explicit Transaction(Database& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  Database& db_;
  bool done_ = false;
};

}  // namespace kforge::sqlite
