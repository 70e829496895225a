#include "store/sqlite.hpp"

#include "common/errors.hpp"

namespace kforge::sqlite {

Database::Database(const std::filesystem::path& path, int busy_timeout_ms) : path_(path) {
  int rc = sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw Error(path.string() + ": cannot open database: " + msg);
  }
  sqlite3_busy_timeout(db_, busy_timeout_ms);
  // The first statement reads the header: a corrupt or foreign file fails here, before anything
  // is written to it.
  exec("PRAGMA foreign_keys = ON");
  exec("PRAGMA journal_mode = WAL");
  exec("PRAGMA synchronous = NORMAL");
}

Database::~Database() {
  if (db_) sqlite3_close_v2(db_);
}

void Database::fail(std::string_view what) const {
  int code = sqlite3_extended_errcode(db_);
  std::string msg = sqlite3_errmsg(db_);
  std::string hint;
  if ((code & 0xff) == SQLITE_BUSY || (code & 0xff) == SQLITE_LOCKED)
    hint = " (another process holds the database; wait for it or use --db to pick another file)";
  else if ((code & 0xff) == SQLITE_NOTADB || (code & 0xff) == SQLITE_CORRUPT)
    hint = " (the file is not a kforge database or is damaged; it was left untouched)";
  throw Error(path_.string() + ": " + msg + hint + " [while: " + std::string(what.substr(0, 80)) + "]");
}

void Database::exec(std::string_view sql) {
  char* err = nullptr;
  std::string text(sql);
  if (sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    sqlite3_free(err);
    fail(sql);
  }
}

Statement Database::prepare(std::string_view sql) { return Statement(*this, sql); }

int64_t Database::last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }

Statement::Statement(Database& db, std::string_view sql) : db_(&db) {
  if (sqlite3_prepare_v2(db.handle(), sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) != SQLITE_OK)
    db.fail(sql);
}

Statement::~Statement() {
  if (stmt_) sqlite3_finalize(stmt_);
}

Statement::Statement(Statement&& other) noexcept : db_(other.db_), stmt_(other.stmt_) { other.stmt_ = nullptr; }

Statement& Statement::bind(int index, std::nullopt_t) {
  if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) db_->fail("bind");
  return *this;
}
Statement& Statement::bind(int index, int64_t v) {
  if (sqlite3_bind_int64(stmt_, index, v) != SQLITE_OK) db_->fail("bind");
  return *this;
}
Statement& Statement::bind(int index, double v) {
  if (sqlite3_bind_double(stmt_, index, v) != SQLITE_OK) db_->fail("bind");
  return *this;
}
Statement& Statement::bind(int index, std::string_view v) {
  if (sqlite3_bind_text(stmt_, index, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT) != SQLITE_OK)
    db_->fail("bind");
  return *this;
}

bool Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  db_->fail(sqlite3_sql(stmt_));
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

bool Statement::is_null(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }
int64_t Statement::int_at(int column) const { return sqlite3_column_int64(stmt_, column); }
double Statement::real_at(int column) const { return sqlite3_column_double(stmt_, column); }
std::string Statement::text_at(int column) const {
  const auto* p = sqlite3_column_text(stmt_, column);
  return p ? std::string(reinterpret_cast<const char*>(p), sqlite3_column_bytes(stmt_, column)) : std::string();
}
std::optional<double> Statement::optional_real_at(int column) const {
  if (is_null(column)) return std::nullopt;
  return real_at(column);
}
std::optional<int64_t> Statement::optional_int_at(int column) const {
  if (is_null(column)) return std::nullopt;
  return int_at(column);
}

Transaction::Transaction(Database& db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }
Transaction::~Transaction() {
  if (!done_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}
void Transaction::commit() {
  db_.exec("COMMIT");
  done_ = true;
}

}  // namespace kforge::sqlite
