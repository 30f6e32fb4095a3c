#include "json.h"

#include <gtest/gtest.h>

#include <string>

namespace replicant {
namespace {

bool Parses(const std::string& in) {
  JsonValue v;
  return ParseJson(in, &v);
}

std::string Nested(int depth) {
  return std::string(static_cast<size_t>(depth), '[') + std::string(static_cast<size_t>(depth), ']');
}

TEST(JsonReader, AcceptsValuesWithWhitespace) {
  JsonValue v;
  ASSERT_TRUE(ParseJson(" \t\r\n{ \"a\" : [ 1 , true , false , null , \"s\" ] }\n", &v));
  ASSERT_EQ(v.kind, JsonKind::kObject);
  ASSERT_EQ(v.fields.size(), 1u);
  const JsonValue* a = v.Find("a");
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->items.size(), 5u);
  EXPECT_EQ(a->items[0].n, 1u);
  EXPECT_TRUE(a->items[1].b);
  EXPECT_EQ(a->items[2].kind, JsonKind::kBool);
  EXPECT_EQ(a->items[3].kind, JsonKind::kNull);
  EXPECT_EQ(a->items[4].s, "s");
  EXPECT_TRUE(Parses("{}"));
  EXPECT_TRUE(Parses("[]"));
  EXPECT_TRUE(Parses("0"));
  EXPECT_TRUE(Parses("\"\""));
}

TEST(JsonReader, RejectsDuplicateKeys) {
  EXPECT_FALSE(Parses("{\"a\":1,\"a\":1}"));
  EXPECT_FALSE(Parses("{\"a\":1,\"\\u0061\":2}"));  // the same name after unescaping
  EXPECT_TRUE(Parses("{\"a\":{\"a\":1}}"));          // different objects
}

TEST(JsonReader, IntegersOnly) {
  JsonValue v;
  ASSERT_TRUE(ParseJson("9007199254740991", &v));  // 2^53 - 1
  EXPECT_EQ(v.n, 9007199254740991ULL);
  EXPECT_FALSE(Parses("9007199254740992"));     // 2^53
  EXPECT_FALSE(Parses("18446744073709551616"));  // 2^64
  EXPECT_FALSE(Parses("99999999999999999999999"));
  EXPECT_FALSE(Parses("1.0"));
  EXPECT_FALSE(Parses("1.5"));
  EXPECT_FALSE(Parses("1e3"));
  EXPECT_FALSE(Parses("1E3"));
  EXPECT_FALSE(Parses("-1"));
  EXPECT_FALSE(Parses("-0"));
  EXPECT_FALSE(Parses("+1"));
  EXPECT_FALSE(Parses("01"));
  EXPECT_FALSE(Parses("00"));
  EXPECT_FALSE(Parses(".5"));
  EXPECT_FALSE(Parses("0x10"));
  EXPECT_TRUE(Parses("[0,10,0]"));
}

TEST(JsonReader, DepthLimitIs16) {
  EXPECT_TRUE(Parses(Nested(16)));
  EXPECT_FALSE(Parses(Nested(17)));
  EXPECT_FALSE(Parses(Nested(100000)));  // no stack overflow: rejected at depth 17
  std::string objects;
  for (int i = 0; i < 17; i++) objects += "{\"a\":";
  objects += "1" + std::string(17, '}');
  EXPECT_FALSE(Parses(objects));
  // Depth counts open containers, not siblings.
  EXPECT_TRUE(Parses("[" + Nested(15) + "," + Nested(15) + "]"));
}

TEST(JsonReader, Escapes) {
  JsonValue v;
  ASSERT_TRUE(ParseJson("\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u0041\\u007e\"", &v));
  EXPECT_EQ(v.s, "\" \\ / \b \f \n \r \t A~");
  ASSERT_TRUE(ParseJson("\"\\u00e9\"", &v));  // non-ASCII decodes to two bytes >= 0x80
  ASSERT_EQ(v.s.size(), 2u);
  EXPECT_GE(static_cast<unsigned char>(v.s[0]), 0x80);
  ASSERT_TRUE(ParseJson("\"\\u0000\"", &v));
  EXPECT_EQ(v.s, std::string(1, '\0'));
}

TEST(JsonReader, RejectsBadEscapes) {
  EXPECT_FALSE(Parses("\"\\x41\""));
  EXPECT_FALSE(Parses("\"\\a\""));
  EXPECT_FALSE(Parses("\"\\u12G4\""));
  EXPECT_FALSE(Parses("\"\\u12\""));
  EXPECT_FALSE(Parses("\"\\u"));
  EXPECT_FALSE(Parses("\"\\"));
  EXPECT_FALSE(Parses("\"\\U0041\""));
}

TEST(JsonReader, RejectsControlCharactersInStrings) {
  for (int c = 0; c < 0x20; c++) {
    EXPECT_FALSE(Parses("\"a" + std::string(1, static_cast<char>(c)) + "b\"")) << c;
  }
  EXPECT_TRUE(Parses("\"\x7f\""));  // DEL is not a JSON control character
}

TEST(JsonReader, RejectsTrailingGarbageAndTruncation) {
  EXPECT_FALSE(Parses("{} x"));
  EXPECT_FALSE(Parses("{}{}"));
  EXPECT_FALSE(Parses("1 2"));
  EXPECT_FALSE(Parses("truex"));
  EXPECT_FALSE(Parses(""));
  EXPECT_FALSE(Parses("   "));
  EXPECT_FALSE(Parses("{"));
  EXPECT_FALSE(Parses("{\"a\""));
  EXPECT_FALSE(Parses("{\"a\":"));
  EXPECT_FALSE(Parses("{\"a\":1"));
  EXPECT_FALSE(Parses("{\"a\":1,}"));
  EXPECT_FALSE(Parses("[1,]"));
  EXPECT_FALSE(Parses("[,1]"));
  EXPECT_FALSE(Parses("\"abc"));
  EXPECT_FALSE(Parses("tru"));
  EXPECT_FALSE(Parses("nul"));
  EXPECT_FALSE(Parses("{a:1}"));
  EXPECT_FALSE(Parses("{'a':1}"));
  EXPECT_FALSE(Parses("[1;2]"));
  EXPECT_FALSE(Parses(std::string("{}\0", 3)));
}

TEST(JsonWriter, CanonicalForms) {
  std::string b;
  AppendUint(b, 0);
  b.push_back(' ');
  AppendUint(b, 18446744073709551615ULL);
  EXPECT_EQ(b, "0 18446744073709551615");
  b.clear();
  b.push_back('{');
  AppendStringField(b, "s", "a\"b\\c", true);
  AppendUintField(b, "n", 42, false);
  AppendBoolField(b, "t", true, false);
  AppendBoolField(b, "f", false, false);
  b.push_back('}');
  EXPECT_EQ(b, "{\"s\":\"a\\\"b\\\\c\",\"n\":42,\"t\":true,\"f\":false}");
  JsonValue v;
  ASSERT_TRUE(ParseJson(b, &v));
  EXPECT_EQ(v.Find("s")->s, "a\"b\\c");
}

}  // namespace
}  // namespace replicant
