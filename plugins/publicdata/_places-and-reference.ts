import type { EndpointDef } from "../../core/endpoint.ts";
import airQuality from "./air-quality.ts";
import airports from "./airports.ts";
import cities from "./cities.ts";
import countries from "./countries.ts";
import country from "./country.ts";
import currencies from "./currencies.ts";
import dialCode from "./dial-code.ts";
import dictionary from "./dictionary.ts";
import earthquakes from "./earthquakes.ts";
import elevation from "./elevation.ts";
import evChargers from "./ev-chargers.ts";
import games from "./games.ts";
import geocode from "./geocode.ts";
import holidays from "./holidays.ts";
import isbn from "./isbn.ts";
import marine from "./marine.ts";
import moon from "./moon.ts";
import music from "./music.ts";
import newsWeb from "./news-web.ts";
import onThisDay from "./on-this-day.ts";
import sports from "./sports.ts";
import sun from "./sun.ts";
import tides from "./tides.ts";
import timezone from "./timezone.ts";
import timezones from "./timezones.ts";
import tv from "./tv.ts";
import water from "./water.ts";
import weather from "./weather.ts";
import weatherHistory from "./weather-history.ts";
import weatherHistoryCity from "./weather-history-city.ts";
import wikidata from "./wikidata.ts";
import wikipedia from "./wikipedia.ts";
import zipcode from "./zipcode.ts";

/** Places, time, weather, culture and reference (issue 8), sorted by name. */
export const placesAndReference: EndpointDef<any, any>[] = [
  airQuality,
  airports,
  cities,
  countries,
  country,
  currencies,
  dialCode,
  dictionary,
  earthquakes,
  elevation,
  evChargers,
  games,
  geocode,
  holidays,
  isbn,
  marine,
  moon,
  music,
  newsWeb,
  onThisDay,
  sports,
  sun,
  tides,
  timezone,
  timezones,
  tv,
  water,
  weather,
  weatherHistory,
  weatherHistoryCity,
  wikidata,
  wikipedia,
  zipcode,
];
