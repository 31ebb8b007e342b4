export const contactProjection = /* groq */ `_type == "contactSection" => {title, subtitle, generalEmailLabel, supportEmailLabel, locationLabel}`
