/// Words every recognizer knows.
package enum EverydayWords {
    /// Common English words: any recognizer knows them, so they are neither taught nor taken for a name heard wrongly.
    package static let english: Set<String> = [
        "a", "about", "after", "again", "all", "am", "an", "and", "another", "any", "are", "around", "as", "at", "away",
        "back", "bad", "be", "because", "bed", "been", "before", "best", "better", "big", "birthday", "book", "both",
        "breakfast", "but", "by", "call", "called", "came", "can", "car", "catch", "change", "chat", "city", "class",
        "coffee", "cold", "come", "could", "date", "day", "days", "did", "dinner", "do", "doctor", "does", "done",
        "down", "dream", "drive", "each", "early", "end", "evening", "every", "family", "feeling", "few", "finally",
        "first", "for", "friday", "friend", "friends", "from", "fun", "game", "get", "getting", "go", "going", "good",
        "got", "great", "had", "happy", "hard", "has", "have", "he", "her", "here", "him", "his", "holiday", "home",
        "hospital", "hot", "house", "how", "i", "if", "in", "into", "is", "it", "its", "job", "just", "kids", "last",
        "late", "later", "life", "like", "little", "long", "lot", "lunch", "made", "make", "many", "me", "meeting",
        "mom", "monday", "more", "morning", "most", "much", "mum", "my", "new", "next", "nice", "night", "no", "not",
        "note", "notes", "now", "of", "off", "office", "old", "on", "one", "only", "or", "other", "our", "out", "over",
        "park", "party", "people", "plan", "plans", "really", "rest", "run", "sad", "saturday", "saw", "school",
        "she", "shopping", "sick", "sleep", "so", "some", "still", "store", "sunday", "talk", "team", "than", "thank",
        "thanks", "that", "the", "their", "them", "then", "there", "these", "they", "thing", "things", "think", "this",
        "thursday", "time", "tired", "to", "today", "tomorrow", "tonight", "too", "trip", "tuesday", "two", "up", "us",
        "very", "visit", "walk", "want", "was", "we", "wednesday", "week", "weekend", "well", "went", "were", "what",
        "when", "where", "which", "while", "who", "why", "will", "with", "work", "working", "would", "year", "yes",
        "yesterday", "you", "your",
    ]
}
