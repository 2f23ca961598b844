import AutoMap
import Foundation

// The benchmark's models. Each declaration conforms to both Codable (synthesized) and
// JSONCodable (reflection), so both libraries map the very same types. Property names follow
// the JSON keys so neither side needs key mapping. Keys a model does not declare are skipped
// by both.

// MARK: The generated API response

struct APIResponse: Codable, JSONCodable {
  let status: String
  let page: PageInfo
  let users: [APIUser]
}

struct PageInfo: Codable, JSONCodable {
  let number: Int
  let size: Int
  let total: Int
  let next: Int?
}

struct APIUser: Codable, JSONCodable {
  let id: Int
  let name: String
  let email: String
  let bio: String
  let age: Int
  let score: Double
  let verified: Bool
  let nickname: String?
  let tags: [String]
  let address: Address
  let posts: [Post]
}

struct Address: Codable, JSONCodable {
  let street: String
  let city: String
  let zip: String
  let geo: Geo
}

struct Geo: Codable, JSONCodable {
  let lat: Double
  let lng: Double
}

struct Post: Codable, JSONCodable {
  let id: Int
  let title: String
  let body: String
  let likes: Int
  let rating: Double
  let published: Bool
  let editedAt: Int?
}

// MARK: twitter.json

struct Twitter: Codable, JSONCodable {
  let statuses: [Status]
  let search_metadata: SearchMetadata
}

struct SearchMetadata: Codable, JSONCodable {
  let completed_in: Double
  let max_id: Int64
  let max_id_str: String
  let next_results: String
  let query: String
  let refresh_url: String
  let count: Int
  let since_id: Int64
  let since_id_str: String
}

struct Status: Codable, JSONCodable {
  let metadata: StatusMetadata
  let created_at: String
  let id: Int64
  let id_str: String
  let text: String
  let source: String
  let truncated: Bool
  let in_reply_to_status_id: Int64?
  let in_reply_to_status_id_str: String?
  let in_reply_to_user_id: Int64?
  let in_reply_to_user_id_str: String?
  let in_reply_to_screen_name: String?
  let user: TwitterUser
  let geo: String?
  let coordinates: String?
  let place: String?
  let contributors: String?
  let retweet_count: Int
  let favorite_count: Int
  let entities: Entities
  let favorited: Bool
  let retweeted: Bool
  let possibly_sensitive: Bool?
  let lang: String
}

struct StatusMetadata: Codable, JSONCodable {
  let result_type: String
  let iso_language_code: String
}

struct Entities: Codable, JSONCodable {
  let hashtags: [Hashtag]
  let urls: [URLEntity]
  let user_mentions: [Mention]
}

struct Hashtag: Codable, JSONCodable {
  let text: String
  let indices: [Int]
}

struct URLEntity: Codable, JSONCodable {
  let url: String
  let expanded_url: String
  let display_url: String
  let indices: [Int]
}

struct Mention: Codable, JSONCodable {
  let screen_name: String
  let name: String
  let id: Int64
  let id_str: String
  let indices: [Int]
}

struct TwitterUser: Codable, JSONCodable {
  let id: Int64
  let id_str: String
  let name: String
  let screen_name: String
  let location: String
  let description: String
  let url: String?
  let entities: UserEntities
  let protected: Bool
  let followers_count: Int
  let friends_count: Int
  let listed_count: Int
  let created_at: String
  let favourites_count: Int
  let utc_offset: Int?
  let time_zone: String?
  let geo_enabled: Bool
  let verified: Bool
  let statuses_count: Int
  let lang: String
  let contributors_enabled: Bool
  let is_translator: Bool
  let is_translation_enabled: Bool
  let profile_background_color: String
  let profile_background_image_url: String
  let profile_background_image_url_https: String
  let profile_background_tile: Bool
  let profile_image_url: String
  let profile_image_url_https: String
  let profile_banner_url: String?
  let profile_link_color: String
  let profile_sidebar_border_color: String
  let profile_sidebar_fill_color: String
  let profile_text_color: String
  let profile_use_background_image: Bool
  let default_profile: Bool
  let default_profile_image: Bool
  let following: Bool
  let follow_request_sent: Bool
  let notifications: Bool
}

struct UserEntities: Codable, JSONCodable {
  let url: URLList?
  let description: URLList
}

struct URLList: Codable, JSONCodable {
  let urls: [URLEntity]
}

// MARK: citm_catalog.json (string-keyed dictionaries of models)

struct Catalog: Codable, JSONCodable {
  let areaNames: [String: String]
  let audienceSubCategoryNames: [String: String]
  let blockNames: [String: String]
  let events: [String: Event]
  let performances: [Performance]
  let seatCategoryNames: [String: String]
  let subTopicNames: [String: String]
  let subjectNames: [String: String]
  let topicNames: [String: String]
  let topicSubTopics: [String: [Int]]
  let venueNames: [String: String]
}

struct Event: Codable, JSONCodable {
  let description: String?
  let id: Int
  let logo: String?
  let name: String
  let subTopicIds: [Int]
  let subjectCode: String?
  let subtitle: String?
  let topicIds: [Int]
}

struct Performance: Codable, JSONCodable {
  let eventId: Int
  let id: Int
  let logo: String?
  let name: String?
  let prices: [Price]
  let seatCategories: [SeatCategory]
  let seatMapImage: String?
  let start: Int
  let venueCode: String
}

struct Price: Codable, JSONCodable {
  let amount: Int
  let audienceSubCategoryId: Int
  let seatCategoryId: Int
}

struct SeatCategory: Codable, JSONCodable {
  let areas: [Area]
  let seatCategoryId: Int
}

struct Area: Codable, JSONCodable {
  let areaId: Int
  let blockIds: [Int]
}

// MARK: canada.json (float-heavy geometry)

struct FeatureCollection: Codable, JSONCodable {
  let type: String
  let features: [Feature]
}

struct Feature: Codable, JSONCodable {
  let type: String
  let properties: [String: String]
  let geometry: Geometry
}

struct Geometry: Codable, JSONCodable {
  let type: String
  let coordinates: [[[Double]]]
}

// MARK: Foundation's side is synthesized Codable

/// Every model above. Foundation must map them with the compiler's synthesized `Codable`: a
/// model that adopted `CodableByMapping` would route `JSONEncoder` and `JSONDecoder` through
/// AutoMap, and the benchmark would compare AutoMap with itself. `main` refuses to run then.
let benchmarkModels: [Any.Type] = [
  APIResponse.self, PageInfo.self, APIUser.self, Address.self, Geo.self, Post.self, Twitter.self,
  SearchMetadata.self, Status.self, StatusMetadata.self, Entities.self, Hashtag.self,
  URLEntity.self, Mention.self, TwitterUser.self, UserEntities.self, URLList.self, Catalog.self,
  Event.self, Performance.self, Price.self, SeatCategory.self, Area.self, FeatureCollection.self,
  Feature.self, Geometry.self,
]

/// The models that would not measure Foundation's synthesized `Codable`.
func modelsBridgedToAutoMap() -> [String] {
  benchmarkModels.filter { $0 is any CodableByMapping.Type }.map { String(describing: $0) }
}
